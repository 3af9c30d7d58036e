import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponsesApi } from '../../src/llm/responses-api.js';
import { ProviderError } from '../../src/ports/errors.js';
import { silentLogger } from '../../src/ports/logger.js';

const BASE = 'http://hosted.test/v1';
const recorded = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/responses', `${name}.json`), 'utf8'));

const api = (maxRetries = 2) =>
  new ResponsesApi({ apiKey: 'sk-test', baseURL: BASE, maxRetries, timeoutMs: 5000, logger: silentLogger });

const request = {
  model: 'gpt-5.5',
  instructions: 'Find the running costs.',
  input: 'What do heat pumps cost to run?',
  metadata: { session_id: 's-1', task_id: 'running-costs' },
  effort: 'high' as const,
};

afterEach(() => {
  nock.cleanAll();
});

describe('the Responses API adapter', () => {
  it('reads a completed deep-research response: the answer, its citations, searches, reasoning and usage', async () => {
    const body = recorded('completed');
    nock(BASE).get(`/responses/${body.id}`).reply(200, body);
    const read = await api().retrieve(body.id);
    expect(read.status).toBe('completed');
    expect(read.citations.map((c) => [c.url, read.text.slice(c.start, c.end)])).toEqual([
      ['https://www.ofgem.gov.uk/energy-price-cap', '([Ofgem](https://www.ofgem.gov.uk/energy-price-cap))'],
      [
        'https://es.catapult.org.uk/report/electrification-of-heat-trial-findings/',
        '([Energy Systems Catapult](https://es.catapult.org.uk/report/electrification-of-heat-trial-findings/))',
      ],
    ]);
    // A search names its queries (`queries`; answers of older models carry the one, deprecated `query`).
    expect(read.searches.map((s) => [s.kind, s.queries ?? s.url])).toEqual([
      ['search', ['Ofgem price cap October 2025 unit rates electricity gas', 'Ofgem price cap January 2026']],
      ['open_page', 'https://www.ofgem.gov.uk/energy-price-cap'],
      ['find_in_page', 'https://www.ofgem.gov.uk/energy-price-cap'],
      ['search', ['Electrification of Heat demonstration seasonal performance factor results']],
    ]);
    expect(read.reasoning).toHaveLength(2);
    expect(read.usage).toEqual({
      inputTokens: 61240,
      outputTokens: 9120,
      cachedInputTokens: 20480,
      reasoningTokens: 7168,
    });
  });

  it('says why a request failed or is incomplete', async () => {
    const failed = recorded('failed');
    const incomplete = recorded('incomplete');
    nock(BASE)
      .get(`/responses/${failed.id}`)
      .reply(200, failed)
      .get(`/responses/${incomplete.id}`)
      .reply(200, incomplete);
    expect(await api().retrieve(failed.id)).toMatchObject({
      status: 'failed',
      error: 'The model failed to generate a response.',
    });
    expect(await api().retrieve(incomplete.id)).toMatchObject({
      status: 'incomplete',
      error: 'incomplete: max_output_tokens',
    });
  });

  it('creates in the background with the web_search tool, the reasoning effort, summaries and the task in metadata; a refused create is sent again', async () => {
    const sent: Record<string, unknown>[] = [];
    nock(BASE)
      .post('/responses')
      .reply(503, { error: { message: 'overloaded' } })
      .post('/responses', (b) => sent.push(b) > 0)
      .reply(200, { ...recorded('completed'), status: 'queued', output: [], usage: null });
    const created = await api().create({ ...request, maxToolCalls: 40 });
    expect(created.status).toBe('queued');
    expect(sent[0]).toMatchObject({
      model: 'gpt-5.5',
      background: true,
      store: true,
      tools: [{ type: 'web_search' }],
      reasoning: { effort: 'high', summary: 'auto' },
      metadata: { session_id: 's-1', task_id: 'running-costs' },
      max_tool_calls: 40,
    });
  });

  it('does not send a create again when its answer was lost on the way back, so it is not paid twice', async () => {
    let posts = 0;
    nock(BASE)
      .post('/responses')
      .times(3)
      .reply(() => {
        posts += 1;
        return [200, '{"id": "resp_cut', { 'content-type': 'application/json' }];
      });
    const error = await api()
      .create(request)
      .catch((e) => e);
    expect(posts).toBe(1);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.code).toBe('hosted_create_unconfirmed');
    expect(error.message).toContain('not sent again');
  });

  it('retries a retrieve through errors, and treats cancelling a finished request as done', async () => {
    const body = recorded('completed');
    nock(BASE)
      .get(`/responses/${body.id}`)
      .replyWithError({ code: 'ECONNRESET', message: 'socket hang up' })
      .get(`/responses/${body.id}`)
      .reply(200, body)
      .post(`/responses/${body.id}/cancel`)
      .reply(400, { error: { message: 'Cannot cancel a completed response.' } });
    expect((await api().retrieve(body.id)).status).toBe('completed');
    await expect(api().cancel(body.id)).resolves.toBeUndefined();
  });
});
