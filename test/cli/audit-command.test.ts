import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { cliEnvironment } from '../helpers/cli-env.js';
import { io } from '../helpers/io.js';

describe('deep-research audit', () => {
  let cli: Awaited<ReturnType<typeof cliEnvironment>>;

  beforeAll(async () => {
    cli = await cliEnvironment(new RuleLlm({ rounds: 1, readPages: true }), {
      localPages: true,
      pageText: {
        'topic 1': ['Spring tides happen at new and full moon, when the sun and the moon pull together.'],
      },
    });
  });
  afterAll(async () => cli.close());

  it('lists who started, asked and scheduled what, with costs, as CSV, with no question, page text or secret in it', async () => {
    const env = cli.env;
    const first = io();
    expect(await runCli(['ask', '--no-clarify', 'How do tides work?'], env, first)).toBe(0);
    const id = first.out.text.match(/session ([0-9a-f]{8})/)![1]!;
    expect(await runCli(['ask', '--about', id, 'When do spring tides happen?'], env, io())).toBe(0);
    const added = io();
    expect(await runCli(['schedule', 'add', 'every monday at 9:00', 'How do tides work?'], env, added)).toBe(
      0,
    );
    const schedule = added.out.text.match(/([0-9a-f]{8})/)![1]!;
    expect(await runCli(['schedule', 'pause', schedule], env, io())).toBe(0);
    expect(await runCli(['schedule', 'remove', schedule], env, io())).toBe(0);

    const csv = io();
    expect(await runCli(['audit', '--csv', '--since', '1d'], env, csv)).toBe(0);
    const [header, ...rows] = csv.out.text.trim().split('\n');
    expect(header).toBe('at,actor,action,team,channel,session,schedule,cost_usd,detail');
    const me = userInfo().username;
    expect(rows.map((r) => r.split(',').slice(1, 3).join(' '))).toEqual([
      `${me} session.started`,
      `${me} report.asked`,
      `${me} schedule.created`,
      `${me} schedule.paused`,
      `${me} schedule.removed`,
    ]);
    expect(rows[1]).toMatch(/,\d+\.\d{4},/);
    expect(csv.out.text).not.toMatch(/tides|Spring|sk-test/i);

    const mine = io();
    expect(await runCli(['audit', '--json', '--user', me], env, mine)).toBe(0);
    expect(mine.out.text.trim().split('\n')).toHaveLength(5);
    const nobody = io();
    expect(await runCli(['audit', '--user', 'UNOBODY'], env, nobody)).toBe(0);
    expect(nobody.err.text).toBe('Nothing in the audit trail matches.\n');
    const bad = io();
    expect(await runCli(['audit', '--since', 'last week'], env, bad)).toBe(2);
    expect(bad.err.text).toContain('--since must be a number of days ("7d") or a date');
  });
});
