import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { readBody } from './read-body.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/responses');
/** Responses recorded from the Responses API's documented wire format: every answer is built on one. */
const fixture = (name: 'completed' | 'failed' | 'incomplete') =>
  JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, unknown>;

/** What one hosted task does (the script decides per request). */
export interface HostedScript {
  /** Polls answered `in_progress` before it ends (default 1); one more search shows at each. */
  polls?: number;
  end?: 'completed' | 'failed' | 'incomplete';
  /** Never ends by itself: only a cancel stops it. */
  hang?: boolean;
  /**
   * The answer. `{{url|title}}` marks a citation: written as OpenAI does,
   * `([title](url))`, with a `url_citation` annotation over it.
   */
  answer?: string;
  searches?: string[];
  pages?: string[];
  /** Reasoning summaries, shown one more at each poll like the searches. */
  reasoning?: string[];
  usage?: { input: number; cached: number; output: number; reasoning: number };
  /**
   * Ends this long after it was created, whether polled or not (as a real
   * request does), instead of after `polls` polls; a configured webhook is
   * then sent.
   */
  endsAfterMs?: number;
}

/** A model as `GET /models` lists it. */
export interface FakeModel {
  id: string;
  shutdown_date?: string | number | null;
}

/** What OpenAI's /v1/models listed in November 2026 (in part): current models, one with a shutdown date. */
export const CURRENT_MODELS: FakeModel[] = [
  { id: 'gpt-5.5', shutdown_date: null },
  { id: 'gpt-5.5-pro', shutdown_date: null },
  { id: 'gpt-5.4', shutdown_date: null },
  { id: 'gpt-5.4-mini', shutdown_date: null },
  { id: 'gpt-5.1', shutdown_date: null },
  { id: 'gpt-5', shutdown_date: '2026-12-11' },
  { id: 'text-embedding-3-large', shutdown_date: null },
];

export interface FakeResponsesOptions {
  /** What GET /models lists, and the models a create may name (others: OpenAI's 404 model_not_found). */
  models?: FakeModel[];
  /** Where to send OpenAI's signed `response.*` webhooks when a request ends, with the signing secret. */
  webhook?: Webhook;
}

interface Webhook {
  url: string;
  secret: string;
}

export interface CreateBody {
  model: string;
  instructions: string;
  input: string;
  background: boolean;
  tools: { type: string }[];
  reasoning?: { effort?: string; summary?: string };
  metadata: Record<string, string>;
  max_tool_calls?: number;
}

interface Running {
  id: string;
  body: CreateBody;
  script: HostedScript;
  polls: number;
  status: string;
  createdAt: number;
}

/**
 * OpenAI's Responses API for background research requests, on 127.0.0.1:
 * `GET /models` (a list with shutdown dates), create (answers `queued` at
 * once; a model it does not list gets OpenAI's `404 model_not_found`),
 * retrieve (`queued` → `in_progress` → how the script ends, the output
 * growing as it goes) and cancel, each answer built on a recorded response;
 * with `webhook`, a request's end is sent as a webhook signed as OpenAI signs
 * them (Standard Webhooks). Every call is kept for the tests to look at.
 */
export async function fakeResponsesApi(
  script: (body: CreateBody) => HostedScript,
  options: FakeResponsesOptions = {},
) {
  const models = options.models ?? CURRENT_MODELS;
  const responses = new Map<string, Running>();
  /** `create:<task>` and `ended:<task>` in the order they happened. */
  const calls = {
    creates: [] as CreateBody[],
    retrieves: [] as string[],
    cancels: [] as string[],
    timeline: [] as string[],
    modelLists: 0,
    /** Webhooks sent, with the status the receiver answered. */
    webhooks: [] as { type: string; responseId: string; status: number }[],
  };
  const timers = new Set<NodeJS.Timeout>();
  let hook = options.webhook;
  // Ends with nowhere to announce them yet, delivered once there is (OpenAI retries a delivery for days).
  const undelivered: Running[] = [];
  const ended = (r: Running) => {
    calls.timeline.push(`ended:${r.body.metadata.task_id}`);
    if (hook) void sendWebhook(hook, r, calls.webhooks);
    else undelivered.push(r);
  };
  const server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'GET' && req.url?.endsWith('/models')) {
      calls.modelLists += 1;
      return send(200, {
        object: 'list',
        data: models.map((m) => ({
          object: 'model',
          created: 1_760_000_000,
          owned_by: 'system',
          ...m,
        })),
      });
    }
    const path = req.url?.replace(/^.*\/responses/, '') ?? '';
    if (req.method === 'POST' && path === '') {
      const body = JSON.parse(await readBody(req)) as CreateBody;
      calls.creates.push(body);
      if (!models.some((m) => m.id === body.model))
        // OpenAI's answer for a model that does not exist or was shut down.
        return send(404, {
          error: {
            message: `The model \`${body.model}\` does not exist or you do not have access to it.`,
            type: 'invalid_request_error',
            param: null,
            code: 'model_not_found',
          },
        });
      calls.timeline.push(`create:${body.metadata.task_id}`);
      const running: Running = {
        id: `resp_${randomUUID().replace(/-/g, '')}`,
        body,
        script: script(body),
        polls: 0,
        status: 'queued',
        createdAt: Date.now(),
      };
      responses.set(running.id, running);
      const after = running.script.endsAfterMs;
      if (after !== undefined && !running.script.hang) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (running.status !== 'queued' && running.status !== 'in_progress') return;
          running.status = running.script.end ?? 'completed';
          ended(running);
        }, after);
        timers.add(timer);
      }
      return send(200, wire(running));
    }
    const id = path.split('/')[1] ?? '';
    const running = responses.get(id);
    if (!running)
      return send(404, {
        error: { message: `No response found with id '${id}'.`, type: 'invalid_request_error' },
      });
    if (req.method === 'POST' && path.endsWith('/cancel')) {
      calls.cancels.push(id);
      if (['completed', 'failed', 'incomplete', 'cancelled'].includes(running.status))
        return send(400, { error: { message: 'Cannot cancel a response that is not in progress.' } });
      running.status = 'cancelled';
      return send(200, wire(running));
    }
    if (req.method === 'GET') {
      calls.retrieves.push(id);
      const before = running.status;
      advance(running);
      if (before !== running.status && !['queued', 'in_progress'].includes(running.status)) ended(running);
      return send(200, wire(running));
    }
    send(404, { error: { message: 'not found' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls,
    /** From now on, requests that end are announced by webhook to `url`, signed with `secret`. */
    sendWebhooksTo: (url: string, secret: string) => {
      hook = { url, secret };
      for (const r of undelivered.splice(0)) void sendWebhook(hook, r, calls.webhooks);
    },
    /** Requests still queued or in progress. */
    inFlight: () =>
      [...responses.values()].filter((r) => r.status === 'queued' || r.status === 'in_progress'),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function advance(r: Running): void {
  if (
    r.status === 'cancelled' ||
    r.status === 'completed' ||
    r.status === 'failed' ||
    r.status === 'incomplete'
  )
    return;
  r.polls += 1;
  const polls = r.script.polls ?? 1;
  // A request that ends by time is in progress until then, however often it is polled.
  if (r.script.hang || r.script.endsAfterMs !== undefined || r.polls <= polls) r.status = 'in_progress';
  else r.status = r.script.end ?? 'completed';
}

/** The response as the API sends it, on the fixture for how it ended. */
function wire(r: Running): Record<string, unknown> {
  const ended = r.status === 'failed' ? 'failed' : r.status === 'incomplete' ? 'incomplete' : 'completed';
  const base = fixture(ended);
  const searches = [
    ...(r.script.searches ?? []).map((query) => ({ type: 'search', query })),
    ...(r.script.pages ?? []).map((url) => ({ type: 'open_page', url })),
  ];
  const shown =
    r.status === 'completed' || r.status === 'failed' || r.status === 'incomplete'
      ? searches.length
      : Math.min(r.polls, searches.length);
  const output: unknown[] = searches.slice(0, shown).map((action, i) => ({
    id: `ws_${r.id.slice(5, 17)}${i}`,
    type: 'web_search_call',
    status: 'completed',
    action,
  }));
  const thoughts = r.script.reasoning ?? [];
  const thought =
    ended === 'completed' && r.status === 'completed' ? thoughts.length : Math.min(r.polls, thoughts.length);
  output.unshift(
    ...thoughts.slice(0, thought).map((text, i) => ({
      id: `rs_${r.id.slice(5, 17)}${i}`,
      type: 'reasoning',
      summary: [{ type: 'summary_text', text }],
    })),
  );
  if (r.status === 'completed') output.push(message(base, r.script.answer ?? 'Nothing was found.'));
  const u = r.script.usage ?? { input: 60_000, cached: 20_000, output: 9_000, reasoning: 7_000 };
  const usage =
    r.status === 'completed' || r.status === 'incomplete'
      ? {
          input_tokens: u.input,
          input_tokens_details: { cached_tokens: u.cached },
          output_tokens: u.output,
          output_tokens_details: { reasoning_tokens: u.reasoning },
          total_tokens: u.input + u.output,
        }
      : null;
  return {
    ...base,
    id: r.id,
    status: r.status,
    model: r.body.model,
    instructions: r.body.instructions,
    metadata: r.body.metadata,
    output,
    usage,
    error: r.status === 'failed' ? base.error : null,
    incomplete_details: r.status === 'incomplete' ? base.incomplete_details : null,
  };
}

/** The final message, its `{{url|title}}` marks written as links with annotations over them. */
function message(base: Record<string, unknown>, answer: string): unknown {
  const template = (base.output as { type: string }[]).find((o) => o.type === 'message') as Record<
    string,
    unknown
  >;
  let text = '';
  const annotations: unknown[] = [];
  let rest = answer;
  for (let m = /\{\{([^|}]+)\|([^}]+)\}\}/.exec(rest); m; m = /\{\{([^|}]+)\|([^}]+)\}\}/.exec(rest)) {
    text += rest.slice(0, m.index);
    const link = `([${m[2]}](${m[1]}))`;
    annotations.push({
      type: 'url_citation',
      start_index: text.length,
      end_index: text.length + link.length,
      url: m[1],
      title: m[2],
    });
    text += link;
    rest = rest.slice(m.index + m[0].length);
  }
  text += rest;
  return { ...template, content: [{ type: 'output_text', text, annotations, logprobs: [] }] };
}

/**
 * Sends a request's end as OpenAI does: an event `{object, id, type,
 * created_at, data: {id}}` signed per Standard Webhooks (HMAC-SHA256 of
 * `id.timestamp.body` with the `whsec_` secret's bytes, `v1,<base64>`).
 */
async function sendWebhook(
  hook: Webhook,
  r: Running,
  sent: { type: string; responseId: string; status: number }[],
): Promise<void> {
  const type = `response.${r.status}`;
  const body = JSON.stringify({
    object: 'event',
    id: `evt_${randomUUID().replace(/-/g, '')}`,
    type,
    created_at: Math.floor(Date.now() / 1000),
    data: { id: r.id },
  });
  const headers = signWebhook(hook.secret, body);
  try {
    const res = await fetch(hook.url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
    });
    await res.body?.cancel();
    sent.push({ type, responseId: r.id, status: res.status });
  } catch {
    sent.push({ type, responseId: r.id, status: 0 });
  }
}

/** Standard Webhooks headers for `body`, signed with `secret` (`whsec_` + base64 key) at `at` (seconds). */
export function signWebhook(
  secret: string,
  body: string,
  { id = `msg_${randomUUID().replace(/-/g, '')}`, at = Math.floor(Date.now() / 1000) } = {},
): Record<string, string> {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${at}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(at), 'webhook-signature': `v1,${signature}` };
}
