import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mammoth from 'mammoth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main.js';
import { extractPdf } from '../../src/search/read/extract-pdf.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { cliEnvironment } from '../helpers/cli-env.js';
import { io } from '../helpers/io.js';

describe('deep-research sessions show --out report.pdf|.docx', () => {
  let cli: Awaited<ReturnType<typeof cliEnvironment>>;
  let dir: string;
  beforeAll(async () => {
    cli = await cliEnvironment(new RuleLlm({ rounds: 2 }));
    dir = mkdtempSync(join(tmpdir(), 'export-cli-'));
  });
  afterAll(async () => {
    await cli.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the report as a PDF and a Word file that open with its headings and citations, built once per version', async () => {
    const asked = io();
    expect(await runCli(['ask', '--no-clarify', 'How do tides work?'], cli.env, asked)).toBe(0);
    const id = asked.out.text.match(/session ([0-9a-f]{8})/)![1]!;
    for (const file of ['report.pdf', 'report.docx']) {
      const shown = io();
      expect(await runCli(['sessions', 'show', id, '--out', join(dir, file)], cli.env, shown)).toBe(0);
      expect(shown.err.text).toMatch(new RegExp(`Report written to .*${file} \\(\\d+ bytes\\)`));
    }
    const pdf = (await extractPdf(readFileSync(join(dir, 'report.pdf')))).text;
    const word = (await mammoth.extractRawText({ path: join(dir, 'report.docx') })).value;
    for (const text of [pdf, word]) {
      expect(text).toContain('Report');
      expect(text).toContain('Sources');
      expect(text).toContain('[1]');
      expect(text).toContain('How do tides work?');
    }
    // A second export of the same version reads the kept file.
    const again = io();
    expect(await runCli(['sessions', 'show', id, '--out', join(dir, 'again.pdf')], cli.env, again)).toBe(0);
    expect(readFileSync(join(dir, 'again.pdf')).equals(readFileSync(join(dir, 'report.pdf')))).toBe(true);
  });
});
