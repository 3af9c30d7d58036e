import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main.js';
import { fakeOpenAiServer } from '../fakes/fake-openai-server.js';
import { fakeResponsesApi } from '../fakes/fake-responses-api.js';
import { graph, TaskGraphLlm } from '../fakes/task-graph-llm.js';
import { io } from '../helpers/io.js';
import { realPostgres } from '../helpers/postgres.js';

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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

  it('names a shut-down hosted model at start and as the reason research stopped, and doctor lists every model', async () => {
    // LOG_LEVEL unset: the terminal's own warning lines, as a person sees them.
    const retired = {
      ...env,
      LOG_LEVEL: '',
      DEEP_RESEARCH_MODEL: 'o3-deep-research',
      MODEL_PRICES: '{"o3-deep-research":{"input":10,"output":40}}',
    };
    const sentence = `The model server at ${hosted.baseUrl} does not offer o3-deep-research (it was shut down on 2026-07-23), which DEEP_RESEARCH_MODEL names: set DEEP_RESEARCH_MODEL to a model it offers (gpt-5.5-pro, gpt-5.5, gpt-5.4-mini, gpt-5.4, gpt-5.1).`;
    const streams = io();
    const code = await runCli(
      ['ask', '--no-clarify', '--yes', '--backend', 'deep-research-api', 'Heat pumps or gas?'],
      retired,
      streams,
    );
    expect(code).toBe(1);
    // Once as a warning before anything runs, once as the reason the research stopped; the cards say less.
    expect(streams.err.text).toContain(`warning: ${sentence}\n`);
    expect(streams.err.text).toMatch(
      new RegExp(`\\nerror: ${literal(sentence)} \\(session [0-9a-f-]{36}\\)\\n$`),
    );
    expect(streams.err.text.split(sentence).length - 1).toBe(2);

    const doctor = io();
    expect(await runCli(['doctor'], retired, doctor)).toBe(1);
    const rows = doctor.out.text.split('\n');
    expect(rows[0]).toMatch(
      /^RESEARCH_MODEL\s+gpt-4\.1\s+server lists no models\s+api: Chat Completions \(the server has no Responses API \(HTTP 404\)\)\s+no shutdown announced\s+price: built-in table of 2026-11-27 \(gpt-4\.1\)\s+http/,
    );
    expect(rows[1]).toMatch(
      /^DEEP_RESEARCH_MODEL\s+o3-deep-research\s+NOT LISTED\s+shuts down 2026-07-23\s+price: MODEL_PRICES \(o3-deep-research\)/,
    );
    expect(doctor.out.text).toContain(`problem: ${sentence}`);
    // With the defaults every model is fine: exit 0, and --json has one object per model.
    const fine = io();
    expect(await runCli(['doctor', '--json'], env, fine)).toBe(0);
    expect(
      fine.out.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toMatchObject([
      { variable: 'RESEARCH_MODEL', model: 'gpt-4.1', listed: null },
      {
        variable: 'DEEP_RESEARCH_MODEL',
        model: 'gpt-5.5',
        listed: true,
        priceSource: 'built-in table of 2026-11-27 (gpt-5.5)',
      },
    ]);
  }, 60_000);

  it('refuses an unknown backend in one line, before anything runs', async () => {
    const streams = io();
    expect(await runCli(['ask', '--backend', 'magic', 'Q?'], env, streams)).toBe(2);
    expect(streams.err.text).toBe(
      'error: --backend must be agents, deep-research-api or gemini-deep-research (got "magic").\n',
    );
  });
});
