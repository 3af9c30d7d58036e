import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { readBody } from './read-body.js';

/**
 * Interactions recorded in the Interactions API's documented wire format
 * (the `Interaction` type of Google's Gen AI SDK, 2026-08: `steps` of type
 * `thought`, `google_search_call`, `url_context_call`, `model_output` with
 * text `content` whose `url_citation` annotations count bytes): every answer
 * is built on one.
 */
const FIXTURES = join(import.meta.dirname, '../fixtures/interactions');
const fixture = (name: 'in-progress' | 'completed') =>
  JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, unknown>;

/** What one research interaction does. */
export interface GeminiScript {
  /** Reads answered `in_progress` before it ends (default 1); one more thought and search shows at each. */
  polls?: number;
  end?: 'completed' | 'failed';
  /** Never ends by itself: only a cancel stops it. */
  hang?: boolean;
  /**
   * The report. `{{url|title}}` marks a citation of the sentence before it:
   * removed from the text, with a `url_citation` over that sentence whose link
   * is a grounding redirect (on this server) to `url`; `{{dead|title}}` is a
   * redirect that leads nowhere (404).
   */
  report?: string;
  thoughts?: string[];
  searches?: string[];
  usage?: { input: number; output: number; thought: number; cached: number; searches: number };
}

export interface CreateBody {
  agent: string;
  input: string;
  background?: boolean;
  previous_interaction_id?: string;
  agent_config?: { type: string; collaborative_planning?: boolean; thinking_summaries?: string };
}

interface Running {
  id: string;
  body: CreateBody;
  script: GeminiScript;
  plan: boolean;
  polls: number;
  status: string;
}

export const GEMINI_KEY = 'gemini-test-key';
const AGENTS = new Set(['deep-research-preview-04-2026', 'deep-research-max-preview-04-2026']);

/**
 * Google's Interactions API for the Deep Research agents, on 127.0.0.1:
 * create (`x-goog-api-key` checked: Google's 403 otherwise; an unknown agent
 * gets 404), get (`in_progress` → completed, the steps growing), cancel, and
 * the grounding redirects its citations link to (`/grounding-api-redirect/…`
 * answering 302 to the real page). With collaborative planning the
 * interaction answers a plan (`plan(input)`); without, `script(body)` decides.
 */
export async function fakeInteractionsApi(
  script: (body: CreateBody) => GeminiScript,
  plan: (input: string) => string = (input) =>
    `1. Find the running costs of both.\n2. Compare grants.\n(for: ${input.slice(0, 40)})`,
  /** The proposed plan never comes: only a cancel stops its interaction. */
  options: { planHangs?: boolean } = {},
) {
  const running = new Map<string, Running>();
  const redirects = new Map<string, string>();
  const calls = {
    creates: [] as CreateBody[],
    gets: [] as string[],
    cancels: [] as string[],
    redirects: [] as string[],
  };
  let failNextGets = 0;
  let garbleNextGets = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const redirect = /^\/grounding-api-redirect\/([\w-]+)$/.exec(url.pathname);
      if (redirect && req.method === 'GET') {
        calls.redirects.push(redirect[1]!);
        const target = redirects.get(redirect[1]!);
        return target
          ? res.writeHead(302, { location: target }).end()
          : res.writeHead(404, { 'content-type': 'text/html' }).end('<p>gone</p>');
      }
      if (req.headers['x-goog-api-key'] !== GEMINI_KEY)
        return json(403, {
          error: {
            code: 403,
            message: 'API key not valid. Please pass a valid API key.',
            status: 'PERMISSION_DENIED',
          },
        });
      if (url.pathname === '/v1beta/interactions' && req.method === 'POST') {
        const body = JSON.parse(await readBody(req)) as CreateBody;
        calls.creates.push(body);
        if (!AGENTS.has(body.agent))
          return json(404, {
            error: { code: 404, message: `Agent ${body.agent} not found.`, status: 'NOT_FOUND' },
          });
        const r: Running = {
          id: `v1_${randomUUID().replaceAll('-', '')}`,
          body,
          script: body.agent_config?.collaborative_planning ? { hang: options.planHangs } : script(body),
          plan: Boolean(body.agent_config?.collaborative_planning),
          polls: 0,
          status: 'in_progress',
        };
        running.set(r.id, r);
        return json(200, interaction(r));
      }
      const get = /^\/v1beta\/interactions\/([\w-]+)$/.exec(url.pathname);
      if (get && req.method === 'GET') {
        calls.gets.push(get[1]!);
        if (failNextGets > 0) {
          failNextGets -= 1;
          return json(503, {
            error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' },
          });
        }
        if (garbleNextGets > 0) {
          garbleNextGets -= 1;
          return res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"v1_');
        }
        const r = running.get(get[1]!);
        if (!r)
          return json(404, { error: { code: 404, message: 'Interaction not found.', status: 'NOT_FOUND' } });
        r.polls += 1;
        if (r.status === 'in_progress' && !r.script.hang && r.polls > (r.script.polls ?? 1))
          r.status = r.script.end ?? 'completed';
        return json(200, interaction(r));
      }
      const cancel = /^\/v1beta\/interactions\/([\w-]+)\/cancel$/.exec(url.pathname);
      if (cancel && req.method === 'POST') {
        calls.cancels.push(cancel[1]!);
        const r = running.get(cancel[1]!);
        if (!r)
          return json(404, { error: { code: 404, message: 'Interaction not found.', status: 'NOT_FOUND' } });
        if (r.status !== 'in_progress')
          return json(400, {
            error: { code: 400, message: 'Interaction is not running.', status: 'FAILED_PRECONDITION' },
          });
        r.status = 'cancelled';
        return json(200, interaction(r));
      }
      json(404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
    })();
  });

  /** The interaction as the API answers it: the recorded shape, its steps as far as it has come. */
  function interaction(r: Running): Record<string, unknown> {
    const base = fixture(r.status === 'in_progress' ? 'in-progress' : 'completed');
    const steps: unknown[] = [{ type: 'user_input', content: [{ type: 'text', text: r.body.input }] }];
    const shown = Math.min(r.polls, r.script.polls ?? 1);
    for (let i = 0; i < shown; i++) {
      const thought = r.script.thoughts?.[i];
      if (thought)
        steps.push({ type: 'thought', signature: 'sig', summary: [{ type: 'text', text: thought }] });
      const query = r.script.searches?.[i];
      if (query)
        steps.push({ type: 'google_search_call', id: `search_${i}`, arguments: { queries: [query] } });
    }
    const ended = r.status !== 'in_progress';
    if (ended && r.status === 'completed') {
      const written = r.plan ? { text: plan(r.body.input), annotations: [] } : report(r.script.report ?? '');
      steps.push({ type: 'model_output', content: [{ type: 'text', ...written }] });
    }
    const u = r.script.usage;
    return {
      ...base,
      id: r.id,
      agent: r.body.agent,
      status: r.status,
      ...(r.body.previous_interaction_id ? { previous_interaction_id: r.body.previous_interaction_id } : {}),
      steps,
      ...(r.status === 'failed'
        ? { errors: [{ code: 'INTERNAL', message: 'The agent could not complete the research.' }] }
        : {}),
      ...(ended && u
        ? {
            usage: {
              total_input_tokens: u.input,
              total_output_tokens: u.output,
              total_thought_tokens: u.thought,
              total_cached_tokens: u.cached,
              total_tokens: u.input + u.output + u.thought,
              grounding_tool_count: [{ type: 'google_search', count: u.searches }],
            },
          }
        : { usage: undefined }),
    };
  }

  /** A scripted report: its `{{url|title}}` marks as byte-offset citations of the sentence before each. */
  function report(script: string): { text: string; annotations: unknown[] } {
    let text = '';
    const annotations: unknown[] = [];
    let rest = script;
    for (let m = /\{\{([^|}]+)\|([^}]*)\}\}/.exec(rest); m; m = /\{\{([^|}]+)\|([^}]*)\}\}/.exec(rest)) {
      text += rest.slice(0, m.index).replace(/\s+$/, '');
      rest = rest.slice(m.index + m[0].length);
      const sentenceStart = Math.max(text.lastIndexOf('. ') + 2, text.lastIndexOf('\n') + 1, 0);
      const token = randomUUID();
      if (m[1] !== 'dead') redirects.set(token, m[1]!);
      annotations.push({
        type: 'url_citation',
        url: `${baseUrl}/grounding-api-redirect/${token}`,
        title: m[1] === 'dead' ? m[2] : new URL(m[1]!).hostname,
        start_index: Buffer.byteLength(text.slice(0, sentenceStart)),
        end_index: Buffer.byteLength(text),
      });
    }
    return { text: text + rest, annotations };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    calls,
    /** The next `n` reads answer Google's 503. */
    failGets: (n: number) => {
      failNextGets = n;
    },
    /** The next `n` reads answer 200 with cut-off JSON. */
    garbleGets: (n: number) => {
      garbleNextGets = n;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
