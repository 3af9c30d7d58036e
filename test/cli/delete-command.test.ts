import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { cliEnvironment } from '../helpers/cli-env.js';
import { io } from '../helpers/io.js';

describe('deep-research sessions delete', () => {
  let cli: Awaited<ReturnType<typeof cliEnvironment>>;

  beforeAll(async () => {
    cli = await cliEnvironment(new RuleLlm({ rounds: 1 }));
  });
  afterAll(async () => cli.close());

  it('deletes a report by its id, and every report of a person with --user; what is gone is said so', async () => {
    const ids: string[] = [];
    for (const question of ['How do tides work?', 'Why is the sea salty?']) {
      const asked = io();
      expect(await runCli(['ask', '--no-clarify', question], cli.env, asked)).toBe(0);
      ids.push(asked.out.text.match(/session ([0-9a-f]{8})/)![1]!);
    }
    const short = io();
    expect(await runCli(['sessions', 'delete', ids[0]!.slice(0, 6)], cli.env, short)).toBe(1);
    expect(short.err.text).toMatch(/give at least 8 characters/);
    const one = io();
    expect(await runCli(['sessions', 'delete', ids[0]!], cli.env, one)).toBe(0);
    expect(one.out.text).toMatch(/^Deleted\./);
    const shown = io();
    await runCli(['sessions', 'show', ids[0]!], cli.env, shown);
    expect(shown.err.text).toMatch(/Deleted by cli:/);
    expect(shown.out.text + shown.err.text).not.toContain('tides');
    const about = io();
    expect(await runCli(['ask', '--about', ids[0]!, 'When?'], cli.env, about)).toBe(1);
    expect(about.err.text).toMatch(/report was deleted/);

    const all = io();
    expect(await runCli(['sessions', 'delete', '--user', userInfo().username], cli.env, all)).toBe(0);
    expect(all.out.text).toBe(`Deleted 1 report of ${userInfo().username}.\n`);
    const listed = io();
    expect(await runCli(['sessions', 'list'], cli.env, listed)).toBe(0);
    expect(listed.out.text).not.toMatch(/tides|salty/);
    expect(listed.out.text.match(/\(deleted by cli:/g)).toHaveLength(2);
  });
});
