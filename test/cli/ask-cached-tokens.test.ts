import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { cliEnvironment } from '../helpers/cli-env.js';
import { io } from '../helpers/io.js';

describe('deep-research ask against a server that reports prompt-cache hits', () => {
  let cli: Awaited<ReturnType<typeof cliEnvironment>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    // Every answer: 50 input tokens, 40 of them from the cache (OpenAI's prompt_tokens_details.cached_tokens).
    cli = await cliEnvironment(new RuleLlm({ rounds: 1, cachedInputTokens: 40 }));
    env = cli.env;
  });
  afterAll(async () => cli.close());

  it('shows the cached share in the footer and in sessions show', async () => {
    const streams = io();
    expect(await runCli(['ask', '--no-clarify', 'How do tides work?'], env, streams)).toBe(0);
    const footer = streams.out.text.trim().split('\n').at(-1)!;
    expect(footer).toMatch(/ tokens \(80% of input cached\) · /);

    const id = footer.match(/session ([0-9a-f-]+)_?$/)![1]!;
    const show = io();
    expect(await runCli(['sessions', 'show', id], env, show)).toBe(0);
    expect(show.err.text).toMatch(/^Usage: \d+ model calls, [\d,]+ tokens \(80% of input cached\)$/m);
    expect(show.err.text).toMatch(
      /^ {2}agent +gpt-4\.1 +\d+ calls {2}[\d,]+ in \(80% cached\), [\d,]+ out$/m,
    );
  }, 120_000);
});
