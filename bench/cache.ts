// Prompt-cache friendliness: full sessions on a scripted model shaped like real research, recording
// every request; prints per phase and overall the share of input tokens (and characters) that repeat a
// prefix of an earlier request of the same session (prefixes of 1,024 tokens or more only, as OpenAI
// caches them). Tokens are what providers bill, so the target is judged on them.
//   npm run bench:cache   (CACHE_SESSIONS=3)
import { PROMPTS_DIR } from '../src/compose.js';
import { newSession, runSession } from '../src/engine/run-session.js';
import { countTokens } from '../src/llm/count-tokens.js';
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

async function measure(agentRounds: number): Promise<Map<string, Tally>> {
  const tallies = new Map<string, Tally>();
  for (let s = 0; s < SESSIONS; s++) {
    const llm = new SessionLlm(agentRounds);
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
    for (const request of llm.requests) {
      const text = serialize(request);
      let best = 0;
      for (const earlier of seen) best = Math.max(best, commonPrefix(text, earlier));
      const prefixTokens = best > 0 ? countTokens(text.slice(0, best)) : 0;
      const cached = prefixTokens >= MIN_TOKENS;
      for (const key of [request.purpose, 'overall']) {
        const t = tallies.get(key) ?? { requests: 0, chars: 0, cachedChars: 0, tokens: 0, cachedTokens: 0 };
        t.requests += 1;
        t.chars += text.length;
        t.cachedChars += cached ? best : 0;
        t.tokens += countTokens(text);
        t.cachedTokens += cached ? prefixTokens : 0;
        tallies.set(key, t);
      }
      seen.push(text);
    }
  }
  return tallies;
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
    figures[`${rounds}rounds.${phase}`] = Number(fmt(share, 3));
    console.log(
      `${phase.padEnd(14)} tokens ${fmt(share, 3)}  characters ${fmt(t.cachedChars / t.chars, 3)}  (${t.requests} requests, ${Math.round(t.tokens / 1000)}k tokens)`,
    );
  }
  const all = tallies.get('overall')!;
  const overall = all.cachedTokens / all.tokens;
  console.log(
    `overall ${fmt(overall, 4)} of tokens (target ≥ 0.85): ${overall >= 0.85 ? 'met' : 'missed'}; the rest is tool results sent for the first time`,
  );
}
report('cache', figures);
