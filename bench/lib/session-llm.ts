import type { Llm, LlmRequest, LlmResponse } from '../../src/ports/llm.js';
import type { PageReader } from '../../src/ports/page-reader.js';
import type { WebSearch } from '../../src/ports/web-search.js';

/**
 * A scripted model shaped like a real deep-research session, for measuring
 * request shapes (bench/cache.ts), following what the prompts ask for: the
 * orchestrator thinks before each of three rounds of three agents and before
 * generate_report; each agent spends its research cycles on rounds of search
 * (two queries), read (three, two, then one page per round) and think, then reports a cited finding of about 2,500 characters; pages have 12,000
 * characters; the final report about 8,000.
 */
export class SessionLlm implements Llm {
  readonly requests: LlmRequest[] = [];
  /** Rounds of search, read and think per agent: 3 spends six of its eight cycles, 4 all eight. */
  constructor(private readonly agentRounds = 3) {}

  async complete(request: LlmRequest): Promise<LlmResponse> {
    this.requests.push(request);
    const reply = this.reply(request);
    return {
      text: reply.text ?? '',
      toolCalls: (reply.tools ?? []).map(([name, args], i) => ({
        id: `c${i}`,
        name,
        arguments: JSON.stringify(args),
      })),
      usage: { inputTokens: 0, outputTokens: 0 },
      finishReason: 'stop',
    };
  }

  private reply(request: LlmRequest): { text?: string; tools?: [string, unknown][] } {
    const assistant = request.messages.filter((m) => m.role === 'assistant');
    const lastCalls = assistant.at(-1)?.toolCalls?.map((c) => c.name) ?? [];
    switch (request.purpose) {
      case 'clarify':
        return { tools: [['generate_plan', {}]] };
      case 'plan':
        return { text: [1, 2, 3, 4].map((i) => `${i}. ${sentence(`plan step ${i}`, 2)}`).join('\n') };
      case 'orchestrator': {
        const rounds = assistant.filter((m) => m.toolCalls?.some((c) => c.name === 'research_agent')).length;
        if (rounds >= 3) return { tools: [['generate_report', {}]] };
        if (!lastCalls.includes('think_tool'))
          return { tools: [['think_tool', { reasoning: sentence(`round ${rounds}`, 5) }]] };
        return {
          tools: [1, 2, 3].map((a) => [
            'research_agent',
            { task: `Topic ${rounds + 1}.${a}: ${sentence(`task ${rounds}.${a}`, 2)}` },
          ]),
        };
      }
      case 'agent': {
        const turn = assistant.length;
        const topic = request.messages.find((m) => m.role === 'user')!.content.match(/Topic [\d.]+/)![0];
        const lastResult = request.messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '';
        const urls = [...lastResult.matchAll(/"url":\s*"([^"]+)"/g)].map((m) => m[1]!);
        // As the prompt asks: think before every search but the first, and before generate_report.
        const angles = ['overview', 'figures', 'criticism', 'outlook'].slice(0, this.agentRounds);
        const steps: [string, unknown][] = angles.flatMap((angle, i) => [
          ['web_search', { queries: [`${topic} ${angle}`, `${topic} ${angle} study`] }],
          ['open_url', { urls: urls.slice(0, Math.max(1, 3 - i)) }],
          ['think_tool', { reasoning: sentence(`${topic} ${angle} read`, 4) }],
        ]);
        return { tools: [steps[turn] ?? ['generate_report', {}]] };
      }
      case 'agent_report':
        return { text: `${sentence('finding', 20)} [1] [2] [3]` };
      default:
        return { text: `# Report\n\n${sentence('report', 60)} [1] [2]` };
    }
  }
}

/** Five results per query, each with a 250-character snippet. */
export const sessionSearch: WebSearch = {
  name: 'bench',
  async search(query) {
    const slug = query.toLowerCase().replace(/\W+/g, '-');
    return [1, 2, 3, 4, 5].map((i) => ({
      title: `${query} (${i})`,
      url: `https://site${i}.example/${slug}`,
      snippet: sentence(`${slug} ${i}`, 2).slice(0, 250),
    }));
  },
};

/** Every page has 12,000 characters of text. */
export const sessionPages: PageReader = {
  async read(url) {
    return { ok: true, page: { url, title: `Page ${url}`, text: sentence(url, 100).slice(0, 12_000) } };
  },
};

/** Deterministic filler text: `count` sentences of about 120 characters seeded by `seed`. */
function sentence(seed: string, count: number): string {
  const words = [
    'heat',
    'pump',
    'cost',
    'grid',
    'policy',
    'market',
    'survey',
    'efficiency',
    'winter',
    'install',
  ];
  return Array.from({ length: count }, (_, i) => {
    const n = [...`${seed}${i}`].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
    const body = Array.from({ length: 16 }, (_, j) => words[(n >> j) % words.length]).join(' ');
    return `${seed} ${i}: ${body}.`;
  }).join(' ');
}
