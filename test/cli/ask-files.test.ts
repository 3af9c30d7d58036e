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
  it('researches the given files with the question and cites them by name', async () => {
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
    const files = ['grants.pdf', 'noise.docx'].flatMap((f) => ['--file', join(dir, f)]);
    const streams = io();
    const code = await runCli(
      ['ask', '--no-clarify', '--yes', ...files, 'Which heat pump fits?'],
      cli.env,
      streams,
    );
    expect(code, streams.err.text).toBe(0);
    expect(streams.err.text).toContain('Reading grants.pdf, noise.docx.\n');
    expect(streams.err.text).not.toContain('Not read');
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

  it('refuses, before anything runs, a file that is missing or of a kind research does not read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'files-'));
    writeFileSync(join(dir, 'budget.xlsx'), 'PK');
    for (const [name, why] of [
      ['missing.md', 'there is no such file'],
      ['budget.xlsx', 'it is not a PDF, Word (.docx), Markdown, text, HTML or CSV file'],
    ]) {
      const streams = io();
      const path = join(dir, name!);
      expect(
        await runCli(['ask', '--no-clarify', '--yes', '--file', path, 'Which fits?'], cli.env, streams),
      ).toBe(2);
      expect(streams.err.text).toBe(`error: cannot research with --file ${path}: ${why}.\n`);
    }
    const list = io();
    expect(await runCli(['sessions', 'list', '--json'], cli.env, list)).toBe(0);
    expect(list.out.text).not.toContain('Which fits?');
  }, 60_000);
});
