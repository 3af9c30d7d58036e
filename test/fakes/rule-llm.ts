import { sleep } from '../../src/http/retry-delay.js';
import type { Llm, LlmRequest, LlmResponse } from '../../src/ports/llm.js';
import type { WebSearch } from '../../src/ports/web-search.js';

/**
 * A fake model whose reply depends only on the request, so a session can be
 * interrupted anywhere and resumed by another worker or process. The
 * orchestrator researches `rounds` topics one cycle at a time, each agent
 * searches once and reports one cited finding, the report lists the findings.
 */
export class RuleLlm implements Llm {
  calls: LlmRequest[] = [];
  constructor(
    private readonly options: {
      delayMs?: number;
      rounds?: number;
      /** Agents the orchestrator dispatches in one turn (in parallel); 1 by default. */
      agentsPerCycle?: number;
      /** Agents search the knowledge base for this instead of searching the web for their task. */
      internalQuery?: string;
      /** With internalQuery: agents search the web when it is offered, the knowledge base only when not. */
      webFirst?: boolean;
      /** Agent n searches the shared files (thread_files) for the n-th of these, when the tool is offered. */
      fileQueries?: string[];
      /** Agents call this tool (an MCP server's, say) with these arguments, when it is offered. */
      externalCall?: [string, unknown];
      /** Ask these clarifying questions instead of calling generate_plan. */
      questions?: string;
      /** Appended to the final report (hostile text, for instance). */
      reportExtra?: string;
      /** Pads the final report with cited paragraphs up to this many characters. */
      reportChars?: number;
      /** Agents read the page their search found (open_url) before reporting. */
      readPages?: boolean;
      /** The claim check's judge: a verdict per claim and cited source number (every citation supported by default). */
      judge?: (claim: string, n: number) => 'supported' | 'partly' | 'unsupported';
      /** What the coverage check answers (every step covered by default). */
      thinSteps?: { step: number; covered: boolean; missing: string }[];
      /** The reuse check's verdict: whether `asked` asks what `earlier` asked (the same by default). */
      sameQuestion?: (earlier: string, asked: string) => boolean;
      /** Input tokens every answer reports as served from the prompt cache (of 50). */
      cachedInputTokens?: number;
      /** The charts the model proposes for a report (none by default). */
      charts?: {
        title: string;
        kind: 'bar' | 'line';
        measure: string;
        unit: string;
        points: { label: string; value: number; source: number }[];
      }[];
    } = {},
  ) {}

  async complete(request: LlmRequest): Promise<LlmResponse> {
    this.calls.push(request);
    if (this.options.delayMs) await sleep(this.options.delayMs, request.signal);
    const reply = this.reply(request);
    if (reply.text) request.onTextDelta?.(reply.text);
    return {
      text: reply.text ?? '',
      toolCalls: (reply.tools ?? []).map(([name, args], i) => ({
        id: `c${i}`,
        name,
        arguments: JSON.stringify(args),
      })),
      usage: { inputTokens: 50, outputTokens: 10, cachedInputTokens: this.options.cachedInputTokens },
      finishReason: 'stop',
    };
  }

  private reply(request: LlmRequest): { text?: string; tools?: [string, unknown][] } {
    const rounds = this.options.rounds ?? 2;
    const dispatched = request.messages.filter((m) => m.role === 'assistant' && m.toolCalls?.length).length;
    switch (request.purpose) {
      case 'clarify':
        return this.options.questions ? { text: this.options.questions } : { tools: [['generate_plan', {}]] };
      case 'plan':
        return { text: Array.from({ length: rounds }, (_, i) => `${i + 1}. Topic ${i + 1}`).join('\n') };
      case 'orchestrator': {
        const perCycle = this.options.agentsPerCycle ?? 1;
        const tasks = Array.from({ length: perCycle }, (_, a): [string, unknown] => [
          'research_agent',
          { task: `Topic ${dispatched * perCycle + a + 1}` },
        ]);
        // A continued research ([Research more]) gets `rounds` more, counted from where it was asked to go on.
        const from = request.messages.findLastIndex(
          (m) => m.role === 'user' && m.content.startsWith('Continue the research'),
        );
        const before = request.messages
          .slice(0, Math.max(0, from))
          .filter((m) => m.role === 'assistant' && m.toolCalls?.length).length;
        return dispatched - before < rounds ? { tools: tasks } : { tools: [['generate_report', {}]] };
      }
      case 'agent': {
        const task = request.messages.find((m) => m.role === 'user')!.content.match(/Topic \d+/)![0];
        const n = Number(task.replace('Topic ', ''));
        const fileQuery = this.options.fileQueries?.[n - 1];
        const offered = (name: string) => request.tools?.some((t) => t.name === name);
        const external = this.options.externalCall;
        const search: [string, unknown] =
          external && offered(external[0])
            ? external
            : fileQuery && offered('thread_files')
              ? ['thread_files', { queries: [fileQuery] }]
              : this.options.internalQuery && !(this.options.webFirst && offered('web_search'))
                ? ['internal_search', { queries: [this.options.internalQuery] }]
                : ['web_search', { queries: [task] }];
        if (dispatched === 0) return { tools: [search] };
        if (this.options.readPages && dispatched === 1) {
          const found = JSON.parse(request.messages.find((m) => m.role === 'tool')!.content).results[0];
          return { tools: [['open_url', { urls: [found.url] }]] };
        }
        return { tools: [['generate_report', {}]] };
      }
      case 'citation_check':
        return {
          text: JSON.stringify({ verdicts: judged(request, this.options.judge ?? (() => 'supported')) }),
        };
      case 'report_question':
        return { text: JSON.stringify(answerFromPassages(request)) };
      case 'same_question': {
        const [, earlier = '', asked = ''] =
          /^Researched earlier: ([\s\S]*)\n\nJust asked: ([\s\S]*)$/.exec(request.messages.at(-1)!.content) ??
          [];
        return { text: JSON.stringify({ same: this.options.sameQuestion?.(earlier, asked) ?? true }) };
      }
      case 'report_charts':
        return { text: JSON.stringify({ charts: this.options.charts ?? [] }) };
      case 'coverage_check':
        return { text: JSON.stringify({ steps: this.options.thinSteps ?? [] }) };
      case 'agent_report': {
        const result = request.messages.find((m) => m.role === 'tool')!.content;
        // A failed tool answers in words, not JSON: the agent reports that it found nothing.
        const doc = result.startsWith('{') ? JSON.parse(result).results[0] : undefined;
        return {
          text: doc ? `Finding from ${doc.title} [${doc.document}].` : 'Nothing was found for this topic.',
        };
      }
      default: {
        const findings =
          request.messages
            .map((m) => m.content)
            .join('\n')
            .match(/Finding from [^\n]*?\[\d+\]\./g) ?? [];
        let text = `## Report\n\n${findings.join('\n')}`;
        if (this.options.reportExtra) text += `\n\n${this.options.reportExtra}`;
        const cite = findings[0]?.match(/\[\d+\]/)?.[0] ?? '';
        for (let i = 1; this.options.reportChars && text.length < this.options.reportChars; i++) {
          if (i % 8 === 1) text += `\n\n## Part ${Math.ceil(i / 8)}`;
          text += `\n\nParagraph ${i}: ${'the evidence is consistent across sources and years '.repeat(8).trim()} ${cite}.`;
        }
        return { text };
      }
    }
  }
}

/**
 * A judge's answer to the claim check's pairs: `verdict(claim, n)` for each,
 * quoting the passage's sentence that shares most words with the claim when
 * it supports it.
 */
export function judged(
  request: LlmRequest,
  verdict: (claim: string, n: number) => 'supported' | 'partly' | 'unsupported',
) {
  const text = request.messages.at(-1)!.content;
  const pairs = /Pair (\d+)\nClaim: (.*)\nSource \[(\d+)\][^\n]*\n"""([\s\S]*?)"""/g;
  const words = (s: string) => new Set(s.toLowerCase().match(/\w{3,}/g) ?? []);
  return [...text.matchAll(pairs)].map((m) => {
    const said = verdict(m[2]!, Number(m[3]));
    const claim = words(m[2]!);
    const shared = (s: string) => [...words(s)].filter((w) => claim.has(w)).length;
    // What a judge copies: a sentence or a table row of the passage, never a table's header or an excerpt's number.
    const sentences = m[4]!
      .split(/(?<=[.!?])\s+|\n+/)
      .map((s) => s.replace(/^\(excerpt \d+\) /, ''))
      .filter((s) => !s.startsWith('[table]'));
    const quote = sentences.reduce((best, s) => (shared(s) > shared(best) ? s : best), sentences[0]!);
    return { pair: Number(m[1]), verdict: said, quote: said === 'unsupported' ? '' : quote.trim() };
  });
}

/**
 * A reader's question answered from the numbered passages it was given: the
 * passage sentence sharing most words (three or more) with the question,
 * cited; none such: not answerable.
 */
export function answerFromPassages(request: LlmRequest): { answerable: boolean; answer: string } {
  const text = (role: string) => request.messages.filter((m) => m.role === role).map((m) => m.content);
  const question = text('user').at(-1)!.replace("The reader's question: ", '');
  const passages = text('user').find((m) => m.startsWith('Source passages:')) ?? '';
  const words = (s: string) => new Set(s.toLowerCase().match(/\w{4,}/g) ?? []);
  const asked = words(question);
  let best = { shared: 0, sentence: '', n: 0 };
  for (const block of passages.split(/\n\n(?=\[\d+\] )/)) {
    const n = Number(/^\[(\d+)\]/.exec(block)?.[1] ?? 0);
    for (const sentence of block
      .split('\n')
      .slice(1)
      .join(' ')
      .split(/(?<=[.!?])\s+/)) {
      const shared = [...words(sentence)].filter((w) => asked.has(w)).length;
      if (n && shared > best.shared) best = { shared, sentence, n };
    }
  }
  return best.shared >= 2
    ? { answerable: true, answer: `${best.sentence.replace(/\.$/, '')} [${best.n}].` }
    : { answerable: false, answer: '' };
}

/** One hit per query, at a URL derived from the query. */
export const ruleSearch: WebSearch = {
  name: 'rule',
  async search(query) {
    const slug = query.toLowerCase().replace(/\W+/g, '-');
    return [{ title: query, url: `https://example.com/${slug}`, snippet: `All about ${query}.` }];
  },
};
