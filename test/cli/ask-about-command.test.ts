import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { cliEnvironment } from '../helpers/cli-env.js';
import { io } from '../helpers/io.js';

describe('deep-research ask --about', () => {
  let cli: Awaited<ReturnType<typeof cliEnvironment>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    cli = await cliEnvironment(new RuleLlm({ rounds: 1, readPages: true }), {
      localPages: true,
      pageText: {
        'topic 1': ['Spring tides happen at new and full moon, when the sun and the moon pull together.'],
      },
    });
    env = cli.env;
  });
  afterAll(async () => cli.close());

  it('answers from the report’s kept sources without research, says when they do not, and sessions show lists both', async () => {
    const first = io();
    expect(await runCli(['ask', '--no-clarify', 'How do tides work?'], env, first)).toBe(0);
    const id = first.out.text
      .trim()
      .split('\n')
      .at(-1)!
      .match(/session ([0-9a-f-]+)_?$/)![1]!
      .slice(0, 8);
    const web = cli.search.hits.length;
    const calls = cli.model.requests.length;

    const asked = io();
    expect(await runCli(['ask', '--about', id, 'When do spring tides happen?'], env, asked)).toBe(0);
    expect(asked.out.text).toMatch(
      /^Spring tides happen at new and full moon, when the sun and the moon pull together \[1\]\.\n\n\[1\] Topic 1 /,
    );
    expect(cli.search.hits.length).toBe(web);
    expect(cli.model.requests.slice(calls).map((r) => r.response_format?.json_schema?.name)).toEqual([
      'report_question',
    ]);

    const unanswerable = io();
    expect(
      await runCli(['ask', '--about', id, 'What is the price of tea in China?'], env, unanswerable),
    ).toBe(1);
    expect(unanswerable.out.text).toBe(
      'The report and the sources its research read do not answer that. Research it with: deep-research ask "What is the price of tea in China?"\n',
    );

    const show = io();
    expect(await runCli(['sessions', 'show', id], env, show)).toBe(0);
    const me = userInfo().username;
    expect(show.err.text).toContain(`Questions asked of this report:\n\nQ (${me}, `);
    expect(show.err.text).toContain('When do spring tides happen?\nSpring tides happen at new and full moon');
    expect(show.err.text).toContain(
      'What is the price of tea in China?\n(not answered by the report or its sources)',
    );

    // The report is found by its words, with the id to show or ask it.
    const found = io();
    expect(await runCli(['find', 'tides', 'work'], env, found)).toBe(0);
    expect(found.out.text).toMatch(
      new RegExp(
        `^${id}  \\d{4}-\\d\\d-\\d\\d  1 source  ${me} \\(terminal\\)\\n  How do tides work\\?\\n`,
        'm',
      ),
    );
    const none = io();
    expect(await runCli(['find', 'volcanoes'], env, none)).toBe(0);
    expect(none.out.text).toBe(
      'No report matches "volcanoes". Research it with: deep-research ask "volcanoes"\n',
    );

    const missing = io();
    expect(await runCli(['ask', '--about', 'ffffffff', 'Anything?'], env, missing)).toBe(2);
    expect(missing.err.text).toBe('error: no session matches "ffffffff"; see deep-research sessions list.\n');
  }, 120_000);
});
