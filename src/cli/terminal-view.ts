import { clearScreenDown, moveCursor } from 'node:readline';
import type { Writable } from 'node:stream';
import {
  describeActivity,
  formatDuration,
  initialProgress,
  type Progress,
  reduceProgress,
} from '../ports/progress.js';
import type { ResearchEvent } from '../ports/research.js';

export type Output = Writable & { isTTY?: boolean; columns?: number; rows?: number };

/**
 * Live progress in a terminal. On a TTY a block of status lines is redrawn in
 * place (phase, cycle, each running agent's activity, sources, elapsed); in a
 * pipe, notable events are printed one per line instead.
 */
export class TerminalView {
  private progress: Progress = initialProgress();
  private drawn = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Time shown so far, without the time spent at prompts (while stopped). */
  private shownMs = 0;
  private since: number | null = null;
  private readonly live: boolean;

  /** `plain` (NO_COLOR, --no-color): no block redrawn in place, one line per event as in a pipe. */
  constructor(
    private readonly out: Output,
    plain = false,
  ) {
    this.live = Boolean(out.isTTY) && !plain;
  }

  start(): void {
    if (this.since !== null) return;
    this.since = Date.now();
    if (this.live) this.timer = setInterval(() => this.redraw(), 1000).unref();
  }

  /** Before a prompt or the report, and on every way out: the block is cleared and stays cleared. */
  stop(): void {
    clearInterval(this.timer);
    if (this.since !== null) this.shownMs += Date.now() - this.since;
    this.since = null;
    this.clear();
  }

  /** Permanent output: printed above the live block. */
  print(text: string): void {
    this.clear();
    this.out.write(text.endsWith('\n') ? text : `${text}\n`);
    this.redraw();
  }

  onEvent(event: ResearchEvent): void {
    this.progress = reduceProgress(this.progress, event);
    const line = this.live ? permanentLine(event, this.progress) : logLine(event, this.progress);
    if (line) this.print(line);
    else this.redraw();
  }

  private clear(): void {
    if (!this.live || this.drawn === 0) return;
    moveCursor(this.out, 0, -this.drawn);
    clearScreenDown(this.out);
    this.drawn = 0;
  }

  private redraw(): void {
    // Stopped (at a prompt, or finished): events that arrive late draw nothing.
    if (!this.live || this.since === null) return;
    this.clear();
    const width = Math.max(40, (this.out.columns ?? 100) - 1);
    const elapsed = this.shownMs + (Date.now() - this.since);
    const lines = statusLines(this.progress, elapsed).map((l) =>
      l.length > width ? `${l.slice(0, width - 1)}…` : l,
    );
    if (lines.length === 0) return;
    this.out.write(`${lines.join('\n')}\n`);
    this.drawn = lines.length;
  }
}

export function statusLines(p: Progress, elapsedMs: number): string[] {
  if (p.phase === 'clarify' || p.phase === 'done') return [];
  const head =
    p.phase === 'plan'
      ? 'Planning'
      : p.phase === 'report'
        ? 'Writing the report'
        : `Researching · cycle ${p.cycle} of ${p.maxCycles}`;
  const lines = [`⏳ ${head} · ${plural(p.sources, 'source')} · ${formatDuration(elapsedMs)}`];
  if (p.checking) lines.push(`  🔎 ${p.checking}`);
  for (const a of p.agents.filter((x) => x.status === 'running')) {
    lines.push(`  • ${a.task}: ${describeActivity(a.activity)}`);
  }
  return lines;
}

/** Lines kept on screen in TTY mode (the live block shows the rest). */
function permanentLine(event: ResearchEvent, progress: Progress): string | null {
  const task = (id: string) => progress.agents.find((a) => a.id === id)?.task ?? 'agent';
  switch (event.type) {
    case 'agent_done':
      return `  ✓ [${event.agentId}] ${task(event.agentId)}: done, ${plural(event.sources, 'source')}`;
    case 'agent_failed':
      return `  ⚠ [${event.agentId}] ${task(event.agentId)}: failed (${event.reason})`;
    case 'research_stopped':
      return `  research stopped early: ${event.reason.replaceAll('_', ' ')}`;
    case 'checking':
      return `  ${event.text}`;
    default:
      return null;
  }
}

/** One line per notable event when output is not a terminal. */
function logLine(event: ResearchEvent, progress: Progress): string | null {
  switch (event.type) {
    case 'phase':
      return event.phase === 'report' ? 'Writing the report…' : null;
    case 'cycle':
      return `Cycle ${event.cycle} of ${event.maxCycles}`;
    case 'agent_started':
      return `  [${event.agentId}] started: ${event.task}`;
    case 'agent_activity':
      return `  [${event.agentId}] ${describeActivity(event.activity)}`;
    default:
      return permanentLine(event, progress);
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
