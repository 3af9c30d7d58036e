import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main.js';
import { fakeOpenAiServer } from '../fakes/fake-openai-server.js';
import { fakeResponsesApi } from '../fakes/fake-responses-api.js';
import { graph, TaskGraphLlm } from '../fakes/task-graph-llm.js';
import { io } from '../helpers/io.js';
import { realPostgres } from '../helpers/postgres.js';

describe('deep-research ask --backend deep-research-api', () => {
  let model: Awaited<ReturnType<typeof fakeOpenAiServer>>;
  let hosted: Awaited<ReturnType<typeof fakeResponsesApi>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    const db = await realPostgres();
    await db.close();
    model = await fakeOpenAiServer(
      new TaskGraphLlm([
        graph([
          ['costs', 2],
          ['grants', 1],
        ]),
      ]),
    );
    hosted = await fakeResponsesApi((body) => ({
      searches: [`${body.metadata.task_id} 2025`],
      answer: `Finding about ${body.metadata.task_id} {{https://${body.metadata.task_id}.example/page|${body.metadata.task_id}}}.`,
    }));
    // No search provider: the hosted model searches by itself.
    env = {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: model.baseUrl,
      RESEARCH_MODEL: 'gpt-4.1',
      DEEP_RESEARCH_BASE_URL: hosted.baseUrl,
      DEEP_RESEARCH_POLL_SECONDS: '0.05',
      DATABASE_URL: db.url,
      LOG_LEVEL: 'silent',
    };
  });
  afterAll(async () => {
    await model.close();
    await hosted.close();
  });

  it('researches with the hosted backend from the terminal: tasks, a cited report and its cost', async () => {
    const streams = io();
    const code = await runCli(
      ['ask', '--no-clarify', '--yes', '--backend', 'deep-research-api', 'Heat pumps or gas?'],
      env,
      streams,
    );
    expect(streams.err.text).not.toContain('error:');
    expect(code).toBe(0);
    expect(hosted.calls.creates.map((c) => c.metadata.task_id).sort()).toEqual(['costs', 'grants']);
    expect(streams.out.text).toMatch(/Finding about costs \[\d\]\./);
    expect(streams.out.text).toContain('https://grants.example/page');
    expect(streams.out.text).toMatch(/2 hosted web searches · .* · ~\$\d+\.\d\d · session /);
    // What each source's answer said is kept with the session, and sessions show says so.
    const id = /session ([0-9a-f-]{36})/.exec(streams.out.text)![1]!;
    const show = io();
    expect(await runCli(['sessions', 'show', id.slice(0, 8)], env, show)).toBe(0);
    expect(show.err.text).toContain('Hosted web searches: 2');
    expect(show.err.text).toMatch(/Source texts kept: 2 \(1k characters\)/);
  }, 60_000);

  it('refuses an unknown backend in one line, before anything runs', async () => {
    const streams = io();
    expect(await runCli(['ask', '--backend', 'magic', 'Q?'], env, streams)).toBe(2);
    expect(streams.err.text).toBe('error: --backend must be agents or deep-research-api (got "magic").\n');
  });
});
