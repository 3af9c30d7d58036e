// Prompt-cache friendliness: full sessions on a scripted model shaped like real research, recording
// every request; prints per request kind and overall the share of input tokens (and characters) that
// repeat a prefix of an earlier request (prefixes of 1,024 tokens or more only, as OpenAI caches them):
// of the same session, and of any earlier session of the run, as a provider's cache (shared by every
// request with that prefix for some minutes) sees a team's sessions one after another. Tokens are what
// providers bill, so the targets are judged on them. Every kind of model call a session makes is here
// (clarify, plan, orchestrator, agents, their reports, the final report and its rolling merge); the
// summary, the thread title and the estimate make no model call.
//   npm run bench:cache   (CACHE_SESSIONS=3)
import { PROMPTS_DIR } from '../src/compose.js';
import { newSession, runSession } from '../src/engine/run-session.js';
import { countTokens } from '../src/llm/count-tokens.js';
import { DEFAULT_MODEL_PRICES } from '../src/model-prices.js';
import { systemClock } from '../src/ports/clock.js';
import type { LlmRequest } from '../src/ports/llm.js';
import { silentLogger } from '../src/ports/logger.js';
import { loadPrompts } from '../src/prompts/load-prompts.js';
import { testSettings } from '../test/helpers/engine-harness.js';
import { SessionLlm, sessionPages, sessionSearch } from './lib/session-llm.js';
import { fmt, report } from './lib/stats.js';

const SESSIONS = Number(process.env.CACHE_SESSIONS ?? 3);
const MIN_TOKENS = 1024;
const PHASES = ['clarify', 'plan', 'orchestrator', 'agent', 'agent_report', 'final_report', 'report_merge'];
const prompts = loadPrompts(PROMPTS_DIR);

interface Tally {
  requests: number;
  chars: number;
  cachedChars: number;
  tokens: number;
  cachedTokens: number;
  /** Counting prefixes of earlier sessions too. */
  acrossTokens: number;
  /** What the model wrote (text and tool calls), counted with the tokenizer. */
  outputTokens: number;
}

/** A request as a provider sees it for caching: tool definitions first, then the messages in order. */
function serialize(request: LlmRequest): string {
  const tools = JSON.stringify(request.tools ?? []);
  const messages = request.messages.map((m) => {
    const calls = m.role === 'assistant' && m.toolCalls?.length ? JSON.stringify(m.toolCalls) : '';
    const id = m.role === 'tool' ? m.toolCallId : '';
    return `<|${m.role}|>${id}${m.content}${calls}`;
  });
  return `${tools}${messages.join('')}`;
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function cachedPrefix(text: string, earlier: string[]): { chars: number; tokens: number } {
  let best = 0;
  for (const e of earlier) best = Math.max(best, commonPrefix(text, e));
  const tokens = best > 0 ? countTokens(text.slice(0, best)) : 0;
  return tokens >= MIN_TOKENS ? { chars: best, tokens } : { chars: 0, tokens: 0 };
}

async function measure(agentRounds: number): Promise<Map<string, Tally>> {
  const tallies = new Map<string, Tally>();
  const earlierSessions: string[] = [];
  for (let s = 0; s < SESSIONS; s++) {
    const scripted = new SessionLlm(agentRounds);
    const written: number[] = [];
    const llm = {
      requests: scripted.requests,
      async complete(request: LlmRequest) {
        const response = await scripted.complete(request);
        written.push(
          countTokens(response.text + response.toolCalls.map((c) => c.name + c.arguments).join('')),
        );
        return response;
      },
    };
    const question = `How do heat pumps compare with gas boilers in region ${s}?`;
    const outcome = await runSession(
      {
        llm,
        prompts,
        webSearch: sessionSearch,
        pageReader: sessionPages,
        countTokens,
        clock: systemClock,
        logger: silentLogger,
        emit: () => {},
        saveCheckpoint: async () => {},
      },
      testSettings({ timeBudgetMs: 3_600_000, agentTimeBudgetMs: 1_800_000, maxCycles: 8 }),
      newSession(`cache-${s}`, { question }),
    );
    if (outcome.kind !== 'done') throw new Error(`session ended ${outcome.kind}`);
    const seen: string[] = [];
    for (const [i, request] of llm.requests.entries()) {
      const text = serialize(request);
      const within = cachedPrefix(text, seen);
      const across = cachedPrefix(text, [...earlierSessions, ...seen]);
      for (const key of [request.purpose, 'overall']) {
        const t = tallies.get(key) ?? {
          requests: 0,
          chars: 0,
          cachedChars: 0,
          tokens: 0,
          cachedTokens: 0,
          acrossTokens: 0,
          outputTokens: 0,
        };
        t.requests += 1;
        t.chars += text.length;
        t.cachedChars += within.chars;
        t.tokens += countTokens(text);
        t.cachedTokens += within.tokens;
        t.acrossTokens += across.tokens;
        t.outputTokens += written[i] ?? 0;
        tallies.set(key, t);
      }
      seen.push(text);
    }
    // Only the requests that open a kind's prefix matter to later sessions; keeping one of each is enough.
    const firsts = new Map(llm.requests.map((r) => [r.purpose, serialize(r)] as const));
    earlierSessions.push(...firsts.values());
  }
  return tallies;
}

/** Roles as the settings name them: each request kind is the model of one role. */
const ROLE_OF: Record<string, 'orchestrator' | 'agent' | 'report'> = {
  clarify: 'orchestrator',
  plan: 'orchestrator',
  orchestrator: 'orchestrator',
  agent: 'agent',
  agent_report: 'agent',
  final_report: 'report',
  report_merge: 'report',
};
/** Hidden reasoning billed as output, which a scripted model does not show: an assumption per call. */
const REASONING_PER_CALL = 1000;

/**
 * What one session of this shape costs on a set of models (USD): input priced
 * with the share a provider's cache serves (prefixes of earlier sessions
 * count), output as written, and again with REASONING_PER_CALL more output.
 */
function sessionCost(
  tallies: Map<string, Tally>,
  models: Record<'orchestrator' | 'agent' | 'report', string>,
) {
  let plain = 0;
  let reasoning = 0;
  for (const [phase, t] of tallies) {
    const role = ROLE_OF[phase];
    if (!role) continue;
    const price = DEFAULT_MODEL_PRICES[models[role]]!;
    const input =
      (t.tokens - t.acrossTokens) * price.input + t.acrossTokens * (price.cachedInput ?? price.input);
    plain += (input + t.outputTokens * price.output) / 1e6 / SESSIONS;
    reasoning += (t.requests * REASONING_PER_CALL * price.output) / 1e6 / SESSIONS;
  }
  return { plain, withReasoning: plain + reasoning };
}

const figures: Record<string, number> = {};
console.log(`cache: ${SESSIONS} sessions per shape; share of input in a cacheable repeated prefix`);
for (const [shape, rounds] of [
  ['agents using all 8 of their research cycles', 4],
  ['agents stopping after 6 of 8', 3],
] as const) {
  console.log(`\n${shape}`);
  const tallies = await measure(rounds);
  for (const phase of [...PHASES, 'overall']) {
    const t = tallies.get(phase);
    if (!t) continue;
    const share = t.cachedTokens / t.tokens;
    const across = t.acrossTokens / t.tokens;
    figures[`${rounds}rounds.${phase}`] = Number(fmt(share, 3));
    figures[`${rounds}rounds.${phase}.acrossSessions`] = Number(fmt(across, 3));
    console.log(
      `${phase.padEnd(14)} tokens ${fmt(share, 3)}  with earlier sessions ${fmt(across, 3)}  characters ${fmt(t.cachedChars / t.chars, 3)}  (${t.requests} requests, ${Math.round(t.tokens / 1000)}k tokens)`,
    );
  }
  const all = tallies.get('overall')!;
  const overall = all.cachedTokens / all.tokens;
  const across = all.acrossTokens / all.tokens;
  console.log(
    `overall ${fmt(overall, 4)} of tokens within a session (target ≥ 0.85): ${overall >= 0.85 ? 'met' : 'missed'}; ` +
      `${fmt(across, 4)} with earlier sessions (target ≥ 0.70): ${across >= 0.7 ? 'met' : 'missed'}. ` +
      'Single-call kinds (clarify, plan, final report) share only with earlier sessions, the first of which is cold; ' +
      'what no request repeats is the question, tool results and findings, sent once',
  );
  console.log(
    `cost of one such session (input at the cached share above, output as written; then with ${REASONING_PER_CALL} reasoning tokens a call)`,
  );
  for (const [label, models] of [
    ['gpt-5.5 (the default)', { orchestrator: 'gpt-5.5', agent: 'gpt-5.5', report: 'gpt-5.5' }],
    [
      'gpt-5.5, AGENT_MODEL=gpt-5.4-mini',
      { orchestrator: 'gpt-5.5', agent: 'gpt-5.4-mini', report: 'gpt-5.5' },
    ],
    ['gpt-5.1 (the former default)', { orchestrator: 'gpt-5.1', agent: 'gpt-5.1', report: 'gpt-5.1' }],
  ] as const) {
    const cost = sessionCost(tallies, models);
    figures[`${rounds}rounds.cost.${models.agent}.${models.report}`] = Number(fmt(cost.plain, 3));
    console.log(`${label.padEnd(36)} $${fmt(cost.plain, 2)}  with reasoning $${fmt(cost.withReasoning, 2)}`);
  }
}
report('cache', figures);
