import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main.js';
import { fakeInteractionsApi, GEMINI_KEY, type GeminiScript } from '../fakes/fake-interactions-api.js';
import { fakeOpenAiServer } from '../fakes/fake-openai-server.js';
import { ScriptedLlm } from '../fakes/scripted-llm.js';
import { io } from '../helpers/io.js';
import { pageServer, send } from '../helpers/page-server.js';
import { realPostgres } from '../helpers/postgres.js';
import { eventually } from '../helpers/slack-harness.js';

const page = (title: string, body: string) =>
  send(
    'text/html',
    `<html><head><title>${title}</title></head><body><article><p>${body}</p></article></body></html>`,
  );

describe('deep-research ask --backend gemini-deep-research', () => {
  // No model call is expected: the agent plans, researches and writes; the pages settle the claim check.
  const llm = new ScriptedLlm([]);
  let model: Awaited<ReturnType<typeof fakeOpenAiServer>>;
  let pages: Awaited<ReturnType<typeof pageServer>>;
  let gemini: Awaited<ReturnType<typeof fakeInteractionsApi>>;
  let env: Record<string, string>;
  let script: GeminiScript;

  beforeAll(async () => {
    const db = await realPostgres();
    await db.close();
    model = await fakeOpenAiServer(llm);
    pages = await pageServer({
      '/costs': page(
        'Running costs 2025',
        'Heat pumps cost less to run than gas boilers in 2025 in most of Europe.',
      ),
      '/grants': page(
        'Grants for heat pumps',
        'Grants of up to 7,500 pounds cover part of a heat pump installation.',
      ),
    });
    gemini = await fakeInteractionsApi(() => script);
    env = {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: model.baseUrl,
      RESEARCH_MODEL: 'gpt-4.1',
      GEMINI_API_KEY: GEMINI_KEY,
      GEMINI_BASE_URL: gemini.baseUrl,
      GEMINI_POLL_SECONDS: '0.05',
      // The cited pages are on this machine.
      ALLOW_PRIVATE_URLS: 'true',
      DATABASE_URL: db.url,
      LOG_LEVEL: 'silent',
    };
  });
  afterAll(async () => {
    await model.close();
    await pages.close();
    await gemini.close();
  });

  const report = () =>
    `# Heat pumps or gas\n\nHeat pumps cost less to run than gas boilers in 2025 in most of Europe. {{${pages.url('/costs')}|costs}}\nGrants of up to 7,500 pounds cover part of a heat pump installation. {{${pages.url('/grants')}|grants}}\n`;

  it('reviews the agent’s own plan at the prompt, approves it as the next turn, and prints its report citing the real pages', async () => {
    script = {
      polls: 2,
      thoughts: ['**Looking at running costs**\n\nComparing tariffs.', '**Grants**'],
      searches: ['heat pump running costs 2025', 'heat pump grants UK'],
      report: report(),
      usage: { input: 400_000, output: 18_000, thought: 9_000, cached: 100_000, searches: 31 },
    };
    const before = gemini.calls.creates.length;
    const streams = io(['y\n']);
    const code = await runCli(
      ['ask', '--no-clarify', '--backend', 'gemini-deep-research', 'Heat pumps or gas?'],
      env,
      streams,
    );
    expect(streams.err.text).not.toContain('error:');
    expect(code).toBe(0);
    const [planning, research] = gemini.calls.creates.slice(before);
    // Collaborative planning first; the approval continues that conversation without planning again.
    expect(planning).toMatchObject({
      agent: 'deep-research-preview-04-2026',
      background: true,
      agent_config: { collaborative_planning: true },
    });
    expect(planning!.input).toContain('Heat pumps or gas?');
    expect(research).toMatchObject({ agent_config: { collaborative_planning: false } });
    expect(research!.previous_interaction_id).toMatch(/^v1_/);
    expect(research!.input).toBe(
      'The plan is approved: carry it out and write the full report with citations.',
    );
    expect(streams.err.text).toContain(
      'Research plan:\n1. Find the running costs of both.\n2. Compare grants.',
    );
    // The report cites the pages the grounding links lead to, never the redirects.
    expect(streams.out.text).toMatch(
      /Heat pumps cost less to run than gas boilers in 2025 in most of Europe\. ?\[1\]/,
    );
    expect(streams.out.text).toContain(pages.url('/costs'));
    expect(streams.out.text).toContain(pages.url('/grants'));
    expect(streams.out.text).not.toContain('grounding-api-redirect');
    // Its cost: the agent's tokens at Gemini 3.1 Pro's prices and Google Search's per-1,000 price.
    expect(streams.out.text).toMatch(/31 hosted web searches · .* · ~\$\d+\.\d\d · session /);
    // The pages themselves are kept, and the claim check settled both citations on them without a model call.
    const id = /session ([0-9a-f-]{36})/.exec(streams.out.text)![1]!;
    const show = io();
    expect(await runCli(['sessions', 'show', id.slice(0, 8)], env, show)).toBe(0);
    expect(show.err.text).toMatch(/Source texts kept: 2 /);
    expect(show.err.text).toContain('2 citations checked');
    expect(llm.problems).toEqual([]);
  }, 60_000);

  it('with --yes, the agent plans as it researches: one interaction, the request itself', async () => {
    script = { report: report() };
    const before = gemini.calls.creates.length;
    const streams = io();
    expect(
      await runCli(
        ['ask', '--no-clarify', '--yes', '--backend', 'gemini-deep-research', 'Heat pumps or gas?'],
        env,
        streams,
      ),
    ).toBe(0);
    const creates = gemini.calls.creates.slice(before);
    expect(creates).toHaveLength(1);
    expect(creates[0]!.previous_interaction_id).toBeUndefined();
    expect(creates[0]!.input).toContain('Heat pumps or gas?');
    expect(streams.out.text).toContain(pages.url('/grants'));
  }, 60_000);

  it('rides out the API failing for a while (503s); a link that leads nowhere is left out and said, a page that cannot be read stays cited unchecked', async () => {
    script = {
      polls: 1,
      report: `${report()}Gas prices rose. {{${pages.url('/missing')}|gone}}\nBoilers are banned. {{dead|nowhere}}\n`,
    };
    gemini.failGets(2);
    const streams = io();
    const code = await runCli(
      ['ask', '--no-clarify', '--yes', '--backend', 'gemini-deep-research', 'Heat pumps or gas?'],
      { ...env, LOG_LEVEL: '' },
      streams,
    );
    expect(code).toBe(0);
    expect(streams.err.text.match(/warning: Gemini API call failed; retrying/g)).toHaveLength(2);
    expect(streams.err.text).toContain('1 cited link could not be followed to its page and was left out');
    expect(streams.out.text).toMatch(/Boilers are banned\.\n/);
    expect(streams.out.text).toMatch(/Gas prices rose\. \[3\]/);
    expect(streams.out.text).toContain(`3. [127.0.0.1](${pages.url('/missing')})`);
    expect(streams.out.text).toContain('2 pages read (1 could not be read) · 2 of 3 citations checked');
  }, 60_000);

  it('says a wrong key in one line naming GEMINI_API_KEY, and a missing key before anything runs', async () => {
    const wrong = io();
    expect(
      await runCli(
        ['ask', '--no-clarify', '--yes', '--backend', 'gemini-deep-research', 'Q?'],
        { ...env, GEMINI_API_KEY: 'nope' },
        wrong,
      ),
    ).toBe(1);
    expect(wrong.err.text).toMatch(
      /error: The Gemini API rejected the key \(HTTP 403\): check GEMINI_API_KEY \(a key from Google AI Studio\)\. \(session [0-9a-f-]{36}\)\n$/,
    );
    const missing = io();
    const before = gemini.calls.creates.length;
    expect(
      await runCli(
        ['ask', '--no-clarify', '--yes', '--backend', 'gemini-deep-research', 'Q?'],
        { ...env, GEMINI_API_KEY: '' },
        missing,
      ),
    ).not.toBe(0);
    expect(missing.err.text).toContain('set GEMINI_API_KEY');
    expect(gemini.calls.creates.length).toBe(before);
  }, 60_000);

  it('Ctrl-C cancels the interaction on Google’s side and ends resumable', async () => {
    script = { hang: true };
    const before = gemini.calls.creates.length;
    const stop = new AbortController();
    const streams = io([], stop.signal);
    const run = runCli(
      ['ask', '--no-clarify', '--yes', '--backend', 'gemini-deep-research', 'Heat pumps or gas?'],
      env,
      streams,
    );
    await eventually(
      () => gemini.calls.creates.length > before && gemini.calls.gets.length > 0,
      20_000,
      'the research running',
    );
    stop.abort();
    await run;
    await eventually(() => gemini.calls.cancels.length > 0, 10_000, 'the cancel');
    expect(streams.err.text).toMatch(/cancel/i);
  }, 60_000);
});
