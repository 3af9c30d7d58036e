import { type AgentProgress, describeActivity, formatDuration, type Progress } from '../../ports/progress.js';
import type { FinalReport } from '../../ports/report.js';
import { domainOf } from '../../ports/report-markdown.js';
import { reportSummary } from '../../sessions/report-summary.js';
import { count, type Ending, oneLine } from './messages.js';

/** Chunks of a streamed message (docs.slack.dev: chat.startStream / appendStream / stopStream). */
export type TaskChunk = {
  type: 'task_update';
  id: string;
  title: string;
  status: 'pending' | 'in_progress' | 'complete' | 'error';
  details?: string;
  output?: string;
  sources?: { type: 'url'; url: string; text: string }[];
};
export type StreamChunk =
  | { type: 'plan_update'; title: string }
  | { type: 'markdown_text'; text: string }
  | TaskChunk;

/** Slack asks for short task text (about 256 characters); a card lists the first pages an agent read. */
const DETAIL_MAX = 250;
const TITLE_MAX = 150;
const SOURCES_SHOWN = 10;
const STATUS = { running: 'in_progress', done: 'complete', failed: 'error' } as const;

/**
 * Model and page text shown as plain text in a task card: nothing in it may
 * mention anyone (`<!here>`, `<@U…>`, `@channel`), whatever Slack parses there.
 */
export function plainSafe(text: string): string {
  return text.replace(/<(?=[!@#])/g, '<\u200b').replace(/@(channel|here|everyone)\b/gi, '@\u200b$1');
}

/** The plan block's title: what the research is doing now. */
export function planTitle(progress: Progress): string {
  const cycle = progress.maxCycles ? ` · cycle ${progress.cycle} of ${progress.maxCycles}` : '';
  const sources = ` · ${count(progress.sources, 'source')}`;
  if (progress.checking) return plainSafe(oneLine(`${progress.checking}${sources}`, TITLE_MAX));
  if (progress.phase === 'report' || progress.phase === 'done') return `Writing the report${sources}`;
  if (progress.phase === 'research') return `Researching${cycle}${sources}`;
  return 'Planning the research';
}

/** One task card per research agent: its task, status, current step or result, and the pages it read. */
export function taskChunk(agent: AgentProgress): TaskChunk {
  const chunk: TaskChunk = {
    type: 'task_update',
    id: agent.id.replace(/[^\w.-]/g, '_'),
    title: plainSafe(oneLine(agent.task, TITLE_MAX)),
    status: STATUS[agent.status],
  };
  if (agent.status === 'running')
    chunk.details = plainSafe(oneLine(describeActivity(agent.activity), DETAIL_MAX));
  else if (agent.status === 'done') {
    const read = agent.read?.length ? `, ${count(agent.read.length, 'page')} read` : '';
    chunk.output = `${count(agent.sources ?? 0, 'source')}${read}`;
  } else chunk.output = plainSafe(oneLine(`Failed: ${agent.reason ?? 'unknown error'}`, DETAIL_MAX));
  if (agent.read?.length) {
    chunk.sources = agent.read.slice(0, SOURCES_SHOWN).map((page) => ({
      type: 'url' as const,
      url: page.url,
      text: plainSafe(oneLine(page.title || domainOf(page.url), 100)),
    }));
  }
  return chunk;
}

/** What the stream starts with: the plan's title and the agents known so far. */
export function startChunks(progress: Progress): StreamChunk[] {
  return [{ type: 'plan_update', title: planTitle(progress) }, ...progress.agents.map(taskChunk)];
}

/**
 * The chunks that finish the stream: every task in its final state (no card
 * left spinning), the title, and a closing line with the summary's headline.
 */
export function finalChunks(progress: Progress, closing: string): StreamChunk[] {
  const tasks = progress.agents.map((a) => taskChunk(a.status === 'running' ? stopped(a) : a));
  return [
    { type: 'plan_update', title: closingTitle(progress) },
    ...tasks,
    { type: 'markdown_text', text: closing },
  ];
}

function stopped(agent: AgentProgress): AgentProgress {
  return { ...agent, status: 'failed', reason: 'stopped before it finished' };
}

function closingTitle(progress: Progress): string {
  return `Research finished · ${count(progress.agents.length, 'agent')} · ${count(progress.sources, 'source')}`;
}

const CLOSING = { done: 'Research complete', cancelled: 'Research cancelled', failed: 'Research stopped' };

/** "**Research complete** · 7m 41s" and the summary's first finding, for the end of the stream. */
export function closingLine(ending: Ending, elapsedMs: number, report: FinalReport | null): string {
  const line = `**${CLOSING[ending.kind as keyof typeof CLOSING] ?? 'Research ended'}** · ${formatDuration(elapsedMs)}`;
  const first = report
    ? reportSummary(report.markdown)
        .markdown.split('\n')
        .find((l) => /\w/.test(l) && !l.startsWith('>'))
    : undefined;
  if (!first) return line;
  const headline = first.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '');
  return `${line}\n\n${plainSafe(oneLine(headline, 300))}`;
}
