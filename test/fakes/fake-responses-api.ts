import { randomUUID } from 'node:crypto';
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
}

export interface CreateBody {
  model: string;
  instructions: string;
  input: string;
  background: boolean;
  tools: { type: string }[];
  metadata: Record<string, string>;
  max_tool_calls?: number;
}

interface Running {
  id: string;
  body: CreateBody;
  script: HostedScript;
  polls: number;
  status: string;
}

/**
 * OpenAI's Responses API for background deep-research requests, on
 * 127.0.0.1: create (answers `queued` at once), retrieve (`queued` →
 * `in_progress` → how the script ends, the output growing as it goes) and
 * cancel, each answer built on a recorded response. Every call is kept for
 * the tests to look at.
 */
export async function fakeResponsesApi(script: (body: CreateBody) => HostedScript) {
  const responses = new Map<string, Running>();
  /** `create:<task>` and `ended:<task>` in the order they happened. */
  const calls = {
    creates: [] as CreateBody[],
    retrieves: [] as string[],
    cancels: [] as string[],
    timeline: [] as string[],
  };
  const server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const path = req.url?.replace(/^.*\/responses/, '') ?? '';
    if (req.method === 'POST' && path === '') {
      const body = JSON.parse(await readBody(req)) as CreateBody;
      calls.creates.push(body);
      calls.timeline.push(`create:${body.metadata.task_id}`);
      const running: Running = {
        id: `resp_${randomUUID().replace(/-/g, '')}`,
        body,
        script: script(body),
        polls: 0,
        status: 'queued',
      };
      responses.set(running.id, running);
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
      if (before !== running.status && !['queued', 'in_progress'].includes(running.status))
        calls.timeline.push(`ended:${running.body.metadata.task_id}`);
      return send(200, wire(running));
    }
    send(404, { error: { message: 'not found' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls,
    /** Requests still queued or in progress. */
    inFlight: () =>
      [...responses.values()].filter((r) => r.status === 'queued' || r.status === 'in_progress'),
    close: () =>
      new Promise<void>((resolve) => {
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
  if (r.script.hang || r.polls <= polls) r.status = 'in_progress';
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
