import type { ResearchEvent, SharedFiles } from '../ports/research.js';
import type { SessionSurface, SurfaceFactory } from '../sessions/session-surface.js';
import type { Io } from './io.js';
import { TerminalView } from './terminal-view.js';

/**
 * The terminal as a surface of the session room, as a Slack thread is one:
 * the runner feeds it every event (live progress on stderr, or JSON lines on
 * stdout under --json) and opens it once a run's given files are read. It
 * asks for no writes at rest: what the terminal shows then (prompts, the
 * report) is its command's to print.
 */
export class TerminalSurface implements SessionSurface {
  /** Progress, prompts and notes go to stderr, so `ask … > report.md` captures the report alone. */
  readonly view: TerminalView | null;

  constructor(
    private readonly io: Io,
    private readonly json: boolean,
  ) {
    this.view = json ? null : new TerminalView(io.stderr, io.plain);
  }

  /** Opens for each run of the session: the files research got, said once (the first run that has them). */
  readonly open: SurfaceFactory = async (_row, view) => {
    if (view.files && !this.filesSaid) this.sayFiles(view.files);
    this.view?.start();
    return this;
  };

  private filesSaid = false;

  onEvent(event: ResearchEvent): void {
    if (this.json) this.io.stdout.write(`${JSON.stringify(event)}\n`);
    else this.view!.onEvent(event);
    if (!this.json && event.type === 'plan_done') this.view!.print(`\nResearch plan:\n${event.plan}\n`);
  }

  async outcomeIntents(): Promise<[]> {
    return [];
  }

  async close(): Promise<void> {
    this.view?.stop();
  }

  private sayFiles(files: SharedFiles): void {
    this.filesSaid = true;
    if (this.json) return;
    const named = (f: { name: string; note?: string }) => f.name + (f.note ? ` (${f.note})` : '');
    if (files.given.length) this.io.stderr.write(`Reading ${files.given.map(named).join(', ')}.\n`);
    if (files.skipped.length)
      this.io.stderr.write(`Not read: ${files.skipped.map((f) => `${f.name} (${f.reason})`).join('; ')}.\n`);
  }
}
