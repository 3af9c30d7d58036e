import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main.js';
import { fakeOpenAiServer } from '../fakes/fake-openai-server.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { io } from '../helpers/io.js';
import { realPostgres } from '../helpers/postgres.js';

describe('deep-research ask while the search provider is down', () => {
  let model: Awaited<ReturnType<typeof fakeOpenAiServer>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    const db = await realPostgres();
    await db.close();
    model = await fakeOpenAiServer(new RuleLlm({ rounds: 1 }));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    env = {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: model.baseUrl,
      RESEARCH_MODEL: 'gpt-4.1',
      SEARXNG_URL: `http://127.0.0.1:${port}/`,
      DATABASE_URL: db.url,
      LOG_LEVEL: 'silent',
    };
  });
  afterAll(async () => model.close());

  it('fails naming the provider and the cause, exits non-zero, and never writes an empty report', async () => {
    const streams = io();
    const code = await runCli(['ask', '--no-clarify', 'How do tides work?'], env, streams);
    expect(code).toBe(1);
    const lines = streams.err.text.trim().split('\n');
    // Progress lines, then one line for the failure: no log records, no stack traces.
    expect(lines.filter((l) => l.startsWith('{') || l.startsWith('    at '))).toEqual([]);
    expect(lines.filter((l) => l.startsWith('error:'))).toHaveLength(1);
    expect(lines.at(-1)).toMatch(
      /^error: Web search failed every time it was tried \(could not reach SearXNG \(ECONNREFUSED\)\), so nothing could be researched: check the search provider/,
    );
    expect(streams.out.text).not.toContain('Sources:');
    const list = io();
    await runCli(['sessions', 'list'], env, list);
    expect(list.out.text).toMatch(/failed/);
  }, 120_000);
});
