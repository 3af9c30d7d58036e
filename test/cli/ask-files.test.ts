import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { type CliEnvironment, cliEnvironment } from '../helpers/cli-env.js';
import { io } from '../helpers/io.js';
import { makeDocx } from '../helpers/make-docx.js';
import { makePdf } from '../helpers/make-pdf.js';

let cli: CliEnvironment;
beforeAll(async () => {
  cli = await cliEnvironment(new RuleLlm({ rounds: 2, fileQueries: ['grant building', 'noise decibels'] }));
});
afterAll(async () => cli.close());

describe('ask --file', () => {
  it('researches the given files with the question, cites them by name, and says which it could not read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'files-'));
    const pdf = makePdf([['Grant rules: up to 7,500 pounds per building for heat pumps.']], {
      title: 'Grant rules',
      author: 'Ops',
      created: 'D:20260101000000Z',
    });
    writeFileSync(join(dir, 'grants.pdf'), pdf);
    writeFileSync(
      join(dir, 'noise.docx'),
      makeDocx(['The meeting rooms allow at most 40 decibels of noise.']),
    );
    writeFileSync(join(dir, 'budget.xlsx'), 'PK');
    const files = ['grants.pdf', 'noise.docx', 'budget.xlsx', 'missing.md'].flatMap((f) => [
      '--file',
      join(dir, f),
    ]);
    const streams = io();
    const code = await runCli(
      ['ask', '--no-clarify', '--yes', ...files, 'Which heat pump fits?'],
      cli.env,
      streams,
    );
    expect(code, streams.err.text).toBe(0);
    expect(streams.err.text).toContain('Reading grants.pdf, noise.docx.\n');
    expect(streams.err.text).toContain(
      `Not read: ${join(dir, 'budget.xlsx')} (not a PDF, Word (.docx), Markdown, text, HTML or CSV file); ${join(dir, 'missing.md')} (no such file).\n`,
    );
    expect(streams.out.text).toContain('Finding from grants.pdf [1].');
    expect(streams.out.text).toContain('Finding from noise.docx [2].');
    expect(streams.out.text).toMatch(
      /## Sources\n\n1\. grants\.pdf, shared with the question\n[\s\S]*2\. noise\.docx, shared with the question/,
    );
    // Kept with the session only: the team knowledge base is untouched.
    const kb = io();
    expect(await runCli(['kb', 'list'], cli.env, kb)).toBe(0);
    expect(kb.out.text).toContain('The knowledge base is empty.');
  }, 60_000);
});
