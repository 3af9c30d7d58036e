import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { dayOf, readModelCatalog } from '../../src/llm/model-catalog.js';
import { ModelLifecycle, type WatchedModel } from '../../src/llm/model-lifecycle.js';
import { ConfigError } from '../../src/ports/errors.js';
import type { Logger } from '../../src/ports/logger.js';
import { fakeOpenAiServer } from '../fakes/fake-openai-server.js';
import { CURRENT_MODELS, type FakeModel, fakeResponsesApi } from '../fakes/fake-responses-api.js';
import { ScriptedLlm } from '../fakes/scripted-llm.js';

let fake: Awaited<ReturnType<typeof fakeResponsesApi>> | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const NOW = Date.parse('2026-11-27T12:00:00Z');

async function lifecycle(models: FakeModel[], watched: Omit<WatchedModel, 'server' | 'addressVariable'>[]) {
  fake = await fakeResponsesApi(() => ({}), { models });
  const server = { apiKey: 'sk-test', baseURL: fake.baseUrl };
  return new ModelLifecycle(
    watched.map((w) => ({ ...w, server, addressVariable: 'OPENAI_BASE_URL' })),
    { now: () => NOW },
  );
}

const priced = 'built-in table of 2026-11-27 (gpt-5.5)';

describe('the model lifecycle check', () => {
  it('names a model the server does not offer, with the variable and what it offers', async () => {
    const models = await lifecycle(CURRENT_MODELS, [
      {
        variable: 'DEEP_RESEARCH_MODEL',
        model: 'o4-mini-deep-research',
        priceSource: 'none: set MODEL_PRICES',
      },
      { variable: 'RESEARCH_MODEL', model: 'gpt-5.5', priceSource: priced },
    ]);
    const [retired, current] = await models.check();
    expect(retired).toMatchObject({ listed: false, shutdownDate: '2026-07-23' });
    expect(retired!.problem).toBe(
      `The model server at ${fake!.baseUrl} does not offer o4-mini-deep-research (it was shut down on 2026-07-23), which DEEP_RESEARCH_MODEL names: set DEEP_RESEARCH_MODEL to a model it offers (gpt-5.5-pro, gpt-5.5, gpt-5.4-mini, gpt-5.4, gpt-5.1).`,
    );
    // A model without a price is named: caps cannot hold for it until MODEL_PRICES prices it.
    expect(retired!.warning).toMatch(
      /^cost and caps cannot be enforced for o4-mini-deep-research \(DEEP_RESEARCH_MODEL\): set MODEL_PRICES/,
    );
    expect(current).toMatchObject({ listed: true, priceSource: priced });
    expect(current!.problem).toBeUndefined();
    expect(current!.warning).toBeUndefined();
    // One read of the list for every model on the server, and none again within the hour.
    await models.check();
    expect(fake!.calls.modelLists).toBe(1);
  });

  it('warns of a shutdown within 60 days (an ISO date or a Unix timestamp), not of one further off', async () => {
    const models = await lifecycle(
      [
        { id: 'gpt-5', shutdown_date: '2026-12-11' },
        { id: 'gpt-4.1', shutdown_date: Date.parse('2027-01-14T00:00:00Z') / 1000 },
        { id: 'gpt-5.1', shutdown_date: '2027-04-01' },
      ],
      [
        { variable: 'RESEARCH_MODEL', model: 'gpt-5', priceSource: priced },
        { variable: 'REPORT_MODEL', model: 'gpt-4.1', priceSource: priced },
        { variable: 'AGENT_MODEL', model: 'gpt-5.1', priceSource: priced },
      ],
    );
    const [gpt5, gpt41, gpt51] = await models.check();
    expect(gpt5!.warning).toBe(
      `gpt-5 (RESEARCH_MODEL) shuts down on 2026-12-11, in 14 days, at ${fake!.baseUrl}: set RESEARCH_MODEL to a current model before then.`,
    );
    expect(gpt41).toMatchObject({ shutdownDate: '2027-01-14' });
    expect(gpt41!.warning).toContain('shuts down on 2027-01-14, in 48 days');
    expect(gpt51).toMatchObject({ listed: true, shutdownDate: '2027-04-01' });
    expect(gpt51!.warning).toBeUndefined();
    expect(models.health().warnings).toHaveLength(2);
    expect(models.health().degraded).toBeUndefined();
  });

  it('is not an error when a server has no model list, or lists other names (a local server)', async () => {
    const models = await lifecycle(
      [{ id: 'qwen2.5:latest' }],
      [
        { variable: 'RESEARCH_MODEL', model: 'qwen2.5', priceSource: 'none: set MODEL_PRICES' },
        { variable: 'REPORT_MODEL', model: 'my-alias', priceSource: 'none: set MODEL_PRICES' },
      ],
    );
    const [ollama, alias] = await models.check();
    // Ollama lists `name:latest` for `name`.
    expect(ollama).toMatchObject({ listed: true });
    expect(ollama!.problem).toBeUndefined();
    // Another name is a warning at start; it is not refused until the server refuses it.
    expect(alias).toMatchObject({ listed: false });
    expect(models.health().degraded).toBeUndefined();
    // A server without GET /models (the in-repo chat server answers 404): no list, no error.
    const chat = await fakeOpenAiServer(new ScriptedLlm([]));
    try {
      const noList = await readModelCatalog({ apiKey: 'k', baseURL: chat.baseUrl });
      expect(noList).toEqual({ kind: 'unlisted', reason: 'GET /models answered HTTP 404' });
    } finally {
      await chat.close();
    }
  });

  it('turns a refusal into the sentence, and /healthz is degraded with it', async () => {
    const models = await lifecycle(CURRENT_MODELS, [
      { variable: 'DEEP_RESEARCH_MODEL', model: 'o3-deep-research', priceSource: 'none: set MODEL_PRICES' },
    ]);
    const error = await models.refused('o3-deep-research', models.watched[0]!.server);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(
      /^The model server at .* does not offer o3-deep-research \(it was shut down on 2026-07-23\), which DEEP_RESEARCH_MODEL names: set DEEP_RESEARCH_MODEL to a model it offers \(gpt-5\.5-pro, gpt-5\.5,/,
    );
    expect(models.health().degraded).toBe(error.message);
  });

  it('logs each sentence at start once, and a server that cannot be reached is named, not thrown', async () => {
    const lines: string[] = [];
    const log: Logger = {
      info: () => {},
      error: () => {},
      warn: (_o, msg) => void lines.push(msg ?? ''),
      child: () => log,
    };
    const closed = await closedPort();
    const models = new ModelLifecycle(
      [
        {
          variable: 'RESEARCH_MODEL',
          model: 'gpt-5.5',
          server: { apiKey: 'k', baseURL: `http://127.0.0.1:${closed}/v1` },
          addressVariable: 'OPENAI_BASE_URL',
          priceSource: priced,
        },
      ],
      { timeoutMs: 2000 },
    );
    const [standing] = await models.announce(log);
    expect(standing!.listed).toBeNull();
    expect(lines).toEqual([
      `Could not reach the model server at http://127.0.0.1:${closed}/v1 (ECONNREFUSED): start it, or check OPENAI_BASE_URL and your network.`,
    ]);
  });
});

/** A port nothing listens on (one just let go). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('dayOf', () => {
  it('reads OpenAI’s YYYY-MM-DD, an ISO date-time, and Unix timestamps in seconds or milliseconds', () => {
    expect(dayOf('2026-12-11')).toBe('2026-12-11');
    expect(dayOf('2026-12-11T00:00:00Z')).toBe('2026-12-11');
    expect(dayOf(1_796_947_200)).toBe('2026-12-11');
    expect(dayOf('1796947200')).toBe('2026-12-11');
    expect(dayOf(1_796_947_200_000)).toBe('2026-12-11');
    expect(dayOf(null)).toBeUndefined();
    expect(dayOf('soon')).toBeUndefined();
    expect(dayOf(-5)).toBeUndefined();
  });
});
