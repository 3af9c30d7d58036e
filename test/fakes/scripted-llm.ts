import { sleep } from '../../src/http/retry-delay.js';
import { canonicalUrl } from '../../src/ports/canonical-url.js';
import type { Llm, LlmPurpose, LlmRequest, LlmResponse, TokenUsage } from '../../src/ports/llm.js';

export interface ScriptedReply {
  text?: string;
  toolCalls?: { name: string; args?: unknown; rawArgs?: string }[];
  usage?: TokenUsage;
}

export interface ScriptStep {
  /** Fixed reply, or one computed from the request (e.g. to cite the document numbers it was shown). */
  reply?: ScriptedReply | ((request: LlmRequest) => ScriptedReply);
  /** Throw this instead of replying. */
  error?: Error;
  /** Wait this long first; aborts like a real call when the request's signal fires. */
  delayMs?: number;
  /** Assertions on the request. */
  expect?: (request: LlmRequest) => void;
}

/** A conversation the fake serves in order: e.g. the orchestrator, or one agent matched by its task. */
export interface Lane {
  name: string;
  match: (request: LlmRequest) => boolean;
  steps: ScriptStep[];
}

/**
 * A scripted model. Each call is routed to the first lane that matches and
 * still has steps (parallel agents are matched by their task, so their
 * interleaving does not matter). A call no lane expects, or steps left over,
 * fail the test via `assertDone()` even when the engine swallowed the error.
 */
export class ScriptedLlm implements Llm {
  readonly calls: LlmRequest[] = [];
  readonly problems: string[] = [];
  inFlight = 0;
  maxInFlight: Partial<Record<LlmPurpose, number>> = {};
  private readonly inFlightBy: Partial<Record<LlmPurpose, number>> = {};
  private ids = 0;

  constructor(private readonly lanes: Lane[]) {}

  async complete(request: LlmRequest): Promise<LlmResponse> {
    this.calls.push(request);
    const lane = this.lanes.find((l) => l.steps.length > 0 && l.match(request));
    if (!lane) {
      const problem = `unexpected ${request.purpose} call: ${firstUser(request).slice(0, 120)}`;
      this.problems.push(problem);
      throw new Error(problem);
    }
    const step = lane.steps.shift()!;
    this.inFlightBy[request.purpose] = (this.inFlightBy[request.purpose] ?? 0) + 1;
    this.maxInFlight[request.purpose] = Math.max(
      this.maxInFlight[request.purpose] ?? 0,
      this.inFlightBy[request.purpose]!,
    );
    try {
      try {
        step.expect?.(request);
      } catch (error) {
        this.problems.push(`lane ${lane.name}: ${(error as Error).message}`);
        throw error;
      }
      if (step.delayMs) await sleep(step.delayMs, request.signal);
      if (request.signal?.aborted) throw request.signal.reason;
      if (step.error) throw step.error;
      let reply: ScriptedReply;
      try {
        reply = typeof step.reply === 'function' ? step.reply(request) : (step.reply ?? {});
      } catch (error) {
        this.problems.push(`lane ${lane.name}: reply failed: ${(error as Error).message}`);
        throw error;
      }
      const text = reply.text ?? '';
      if (text && request.onTextDelta) {
        const half = Math.ceil(text.length / 2);
        request.onTextDelta(text.slice(0, half));
        request.onTextDelta(text.slice(half));
      }
      return {
        text,
        toolCalls: (reply.toolCalls ?? []).map((c) => ({
          id: `call_${++this.ids}`,
          name: c.name,
          arguments: c.rawArgs ?? JSON.stringify(c.args ?? {}),
        })),
        usage: reply.usage ?? { inputTokens: 100, outputTokens: 20 },
        finishReason: reply.toolCalls?.length ? 'tool_calls' : 'stop',
      };
    } finally {
      this.inFlightBy[request.purpose]! -= 1;
    }
  }

  /** Fails when a call was unexpected or a lane still has steps. */
  assertDone(): void {
    const leftover = this.lanes
      .filter((l) => l.steps.length > 0)
      .map((l) => `${l.name} (${l.steps.length} left)`);
    const problems = [...this.problems, ...(leftover.length ? [`unused steps: ${leftover.join(', ')}`] : [])];
    if (problems.length) throw new Error(`scripted model: ${problems.join('; ')}`);
  }
}

export function firstUser(request: LlmRequest): string {
  const m = request.messages.find((x) => x.role === 'user');
  return m?.content ?? '';
}

// Lane matchers and replies used across tests.

export const purpose =
  (...purposes: LlmPurpose[]) =>
  (request: LlmRequest) =>
    purposes.includes(request.purpose);

/** An agent's calls (research steps and its report), recognised by the task in its first message. */
export const agentWithTask = (task: string) => (request: LlmRequest) =>
  (request.purpose === 'agent' || request.purpose === 'agent_report') && firstUser(request).includes(task);

export const call = (name: string, args?: unknown): ScriptStep => ({
  reply: { toolCalls: [{ name, args }] },
});

export const say = (text: string): ScriptStep => ({ reply: { text } });

/** One orchestrator turn dispatching a research agent per task (in parallel when several). */
export const dispatch = (...tasks: string[]): ScriptStep => ({
  reply: { toolCalls: tasks.map((task) => ({ name: 'research_agent', args: { task } })) },
});

/** The plan step most tests do not care about. */
export const planLane = (plan = '1. Step'): Lane => ({
  name: 'plan',
  match: purpose('plan'),
  steps: [say(plan)],
});

/** The `document` number a tool result in this request gave to `url` (compared as canonical URLs). */
export function docNumber(request: LlmRequest, url: string): number {
  for (const m of request.messages) {
    if (m.role !== 'tool') continue;
    try {
      const body = JSON.parse(m.content) as { results?: { document: number; url?: string }[] };
      const hit = body.results?.find((r) => r.url && canonicalUrl(r.url) === canonicalUrl(url));
      if (hit) return hit.document;
    } catch {}
  }
  throw new Error(`no document for ${url} in the request`);
}
