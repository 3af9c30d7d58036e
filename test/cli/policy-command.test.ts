import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { cliEnvironment } from '../helpers/cli-env.js';
import { io } from '../helpers/io.js';

describe('deep-research policy', () => {
  let cli: Awaited<ReturnType<typeof cliEnvironment>>;

  beforeAll(async () => {
    cli = await cliEnvironment(new RuleLlm({ rounds: 1 }));
  });
  afterAll(async () => cli.close());

  it('sets, shows, lists and clears a channel policy, audited as the operator; a wrong one is said and not saved', async () => {
    const env = cli.env;
    const set = io();
    const policy =
      '{"starters":{"kind":"named","users":["UANN"]},"dailyBudgetUsd":20,"sources":{"web":false}}';
    expect(await runCli(['policy', 'set', 'CRESEARCH', policy], env, set)).toBe(0);
    expect(set.out.text).toMatch(
      /^Set\. CRESEARCH {2}v1 {2}sources: knowledge base, thread files, MCP servers · \$20\.00 a day · started by 1 named person or group {2}\(set by cli:/,
    );
    const bad = io();
    expect(await runCli(['policy', 'set', 'CRESEARCH', '{"dailyBudgetUsd":-1}'], env, bad)).toBe(2);
    expect(bad.err.text).toBe("error: the policy's dailyBudgetUsd: Too small: expected number to be >0\n");
    const unknown = io();
    expect(await runCli(['policy', 'set', 'CRESEARCH', '{"backends":["magic"]}'], env, unknown)).toBe(1);
    expect(unknown.err.text).toMatch(
      /^error: There is no research backend named magic here; this app runs agents/,
    );
    const notJson = io();
    expect(await runCli(['policy', 'set', 'CRESEARCH', 'budget=20'], env, notJson)).toBe(2);

    const show = io();
    expect(await runCli(['policy', 'show', 'CRESEARCH', '--json'], env, show)).toBe(0);
    expect(JSON.parse(show.out.text)).toMatchObject({
      channelId: 'CRESEARCH',
      version: 1,
      policy: { dailyBudgetUsd: 20, starters: { kind: 'named', users: ['UANN'], groups: [] } },
    });
    const list = io();
    expect(await runCli(['policy', 'list'], env, list)).toBe(0);
    expect(list.out.text.trim().split('\n')).toHaveLength(1);

    expect(await runCli(['policy', 'clear', 'CRESEARCH'], env, io())).toBe(0);
    const none = io();
    expect(await runCli(['policy', 'show', 'CRESEARCH'], env, none)).toBe(1);
    expect(none.err.text).toBe('error: CRESEARCH has no research policy.\n');

    const audit = io();
    expect(await runCli(['audit', '--csv'], env, audit)).toBe(0);
    const rows = audit.out.text.trim().split('\n').slice(1);
    expect(rows.map((r) => r.split(',').slice(1, 5).join(' '))).toEqual([
      `cli:${userInfo().username} policy.changed  CRESEARCH`,
      `cli:${userInfo().username} policy.changed  CRESEARCH`,
    ]);
  });
});
