import { writeFile } from 'node:fs/promises';
import type { ExportFormat } from '../ports/report-export.js';
import { citationFigures, reportDocument, usageFooter } from '../ports/report-markdown.js';
import type { SessionView } from '../ports/research.js';
import { cachedShare, totalTokens, type Usage } from '../ports/usage.js';
import type { StoredAnswer } from '../sessions/records/answer-store.js';
import type { Feedback } from '../sessions/records/feedback-store.js';
import type { OutboxRow } from '../sessions/records/outbox-store.js';
import type { SessionRow, SessionStore } from '../sessions/records/session-store.js';
import type { Store } from '../sessions/records/store.js';
import type { Exported } from '../sessions/report-exports.js';
import type { Io } from './io.js';
import { printReport } from './print-report.js';

export interface ListOptions {
  limit: number;
  /** Only these statuses (all when unset). */
  statuses?: string[];
  json: boolean;
}

/** `deep-research sessions list`: the latest sessions, newest first, under a header (or as JSON lines). */
export async function listSessions(store: SessionStore, io: Io, options: ListOptions): Promise<number> {
  const rows = await store.listRecent({ limit: options.limit, statuses: options.statuses });
  if (options.json) {
    for (const s of rows) io.stdout.write(`${JSON.stringify(sessionJson(s))}\n`);
    return 0;
  }
  if (rows.length === 0) {
    io.stdout.write(
      options.statuses
        ? `No sessions with status ${options.statuses.join(' or ')}.\n`
        : 'No sessions yet. Start one with: deep-research ask "your question"\n',
    );
    return 0;
  }
  io.stdout.write(`${'ID'.padEnd(8)}  ${'CREATED (UTC)'.padEnd(16)}  ${'STATUS'.padEnd(13)}  QUESTION\n`);
  for (const s of rows) {
    const when = s.createdAt.toISOString().slice(0, 16).replace('T', ' ');
    const what = s.deleted ? `(deleted by ${s.deleted.by})` : oneLine(s.question, 70);
    io.stdout.write(`${s.id.slice(0, 8)}  ${when}  ${s.status.padEnd(13)}  ${what}\n`);
  }
  return 0;
}

/** A session as scripts read it (`--json`). */
function sessionJson(s: SessionRow) {
  return {
    id: s.id,
    status: s.status,
    question: s.question,
    requester: s.requester,
    origin: s.origin,
    createdAt: s.createdAt.toISOString(),
  };
}

/** The one session an id (or its first characters) names, or null after saying why on stderr. */
export async function sessionById(sessions: SessionStore, id: string, io: Io): Promise<SessionRow | null> {
  const matches = await sessions.findByIdPrefix(id);
  if (matches.length === 1) return matches[0]!;
  io.stderr.write(
    matches.length === 0
      ? `error: no session matches "${id}"; see deep-research sessions list.\n`
      : `error: "${id}" matches ${matches.length} sessions; give more of the id.\n`,
  );
  return null;
}

export interface ShowOptions {
  pager?: string;
  json: boolean;
  /** Also write the report as a Markdown document here. */
  out?: string;
  /** The session as its checkpoint has it (clarification, whole usage); without it, what the store keeps. */
  view?: (id: string) => Promise<SessionView | null>;
  /** The report as a PDF or Word file, for `--out` ending in .pdf or .docx. */
  exportFile?: (row: SessionRow, format: ExportFormat) => Promise<Exported>;
}

/** `deep-research sessions show ID`: a past session and its report (an id prefix is enough). */
export async function showSession(
  store: Pick<Store, 'sessions' | 'outbox' | 'sources' | 'answers' | 'feedback'>,
  id: string,
  io: Io,
  options: ShowOptions,
): Promise<number> {
  const session = await sessionById(store.sessions, id, io);
  if (!session) return 1;
  const [outbox, stored, feedback, kept, answers, view] = await Promise.all([
    store.outbox.forSession(session.id),
    store.sessions.loadUsage(session.id),
    store.feedback.list(session.id),
    store.sources.sizeOf(session.id),
    store.answers.list(session.id),
    options.view?.(session.id).catch(() => null) ?? null,
  ]);
  // The checkpoint's usage counts searches and pages too: the footer reads as ask's did.
  const usage = view?.usage ?? stored;
  const clarification = view?.clarification ?? null;
  const report = session.report;
  const footer = report ? usageFooter(report, usage, session.id) : undefined;
  const format = options.out ? /\.(pdf|docx)$/i.exec(options.out)?.[1]?.toLowerCase() : undefined;
  if (options.out && report && format && options.exportFile) {
    const exported = await options.exportFile(session, format as ExportFormat);
    if ('refused' in exported) {
      io.stderr.write(`error: ${exported.refused}\n`);
      return 1;
    }
    await writeFile(options.out, exported.file.bytes);
    io.stderr.write(`Report written to ${options.out} (${exported.file.bytes.length} bytes)\n`);
  } else if (options.out && report) {
    await writeFile(options.out, reportDocument(session.question, report, footer!));
    io.stderr.write(`Report written to ${options.out}\n`);
  } else if (options.out) io.stderr.write(`Session ${session.id.slice(0, 8)} has no report to write.\n`);
  if (options.json) {
    const json = { ...sessionJson(session), plan: session.plan, clarification, report, usage, answers };
    io.stdout.write(`${JSON.stringify(json)}\n`);
    return 0;
  }
  // The details on stderr: stdout carries the report as ask prints it (rendered and paged, or Markdown).
  io.stderr.write(describe(session, outbox, usage, feedback, kept, clarification));
  if (report) await printReport(session.question, report, footer!, io, options.pager);
  if (answers.length) io.stderr.write(`\n${answersText(answers)}`);
  return 0;
}

function describe(
  s: SessionRow,
  outbox: OutboxRow[],
  usage: Usage,
  feedback: Feedback[],
  kept: { sources: number; chars: number },
  clarification: SessionView['clarification'],
): string {
  const lines = [
    `Session ${s.id}`,
    s.deleted ? `Deleted by ${s.deleted.by} · ${s.deleted.at.toISOString()}` : `Question: ${s.question}`,
    `Status: ${s.status} · requested by ${s.requester} · ${s.createdAt.toISOString()}`,
  ];
  if (s.error) lines.push(`Error: ${s.error}`);
  if (s.deliveryNote) lines.push(`Delivery: ${s.deliveryNote}`);
  const pending = outbox.filter((o) => o.state === 'pending');
  if (pending.length) {
    const last = pending.find((o) => o.lastError)?.lastError;
    lines.push(
      `Slack: ${pending.length} ${pending.length === 1 ? 'write' : 'writes'} waiting to be delivered${last ? ` (last error: ${last})` : ''}`,
    );
  }
  if (usage.models.length) lines.push(...usageLines(usage));
  if (usage.hostedSearches) lines.push(`Hosted web searches: ${usage.hostedSearches}`);
  if (kept.sources)
    lines.push(
      `Source texts kept: ${kept.sources} (${Math.max(1, Math.round(kept.chars / 1000)).toLocaleString('en-US')}k characters)`,
    );
  if (feedback.length) {
    const good = feedback.filter((f) => f.value === 'good').length;
    const who = feedback.map(
      (f) =>
        `${f.userId} ${f.value === 'good' ? 'good' : 'not good'} ${f.at.toISOString().slice(0, 16).replace('T', ' ')}`,
    );
    lines.push(`Feedback: ${good} good, ${feedback.length - good} not good (${who.join('; ')})`);
  }
  const citations = citationFigures(s.report?.citationCheck);
  if (citations.length) lines.push(`Citations: ${citations.join(' · ')}`);
  if (clarification)
    lines.push(
      '',
      'Clarifying questions:',
      clarification.questions,
      `Answer: ${clarification.answer ?? '(none: started without answering)'}`,
    );
  if (s.plan) lines.push('', 'Research plan:', s.plan);
  return `${lines.join('\n')}\n`;
}

/** The questions readers asked of the report, who asked, and the answers (or that the sources did not answer). */
function answersText(answers: StoredAnswer[]): string {
  const blocks = answers.map((a) => {
    const when = a.at.toISOString().slice(0, 16).replace('T', ' ');
    const answer = a.answer ?? '(not answered by the report or its sources)';
    const cited = a.sources.map((s) => `[${s.n}] ${s.title}${s.url ? ` ${s.url}` : ''}`).join('\n');
    return `Q (${a.asker}, ${when}): ${a.question}\n${answer}${cited ? `\n${cited}` : ''}`;
  });
  return `Questions asked of this report:\n\n${blocks.join('\n\n')}\n`;
}

/** Tokens per phase and model, with the share of input the server answered from its prompt cache. */
function usageLines(usage: Usage): string[] {
  const n = (x: number) => x.toLocaleString('en-US');
  const cached = (input: number, hit = 0) => (hit > 0 ? ` (${Math.round((100 * hit) / input)}% cached)` : '');
  const calls = usage.models.reduce((sum, m) => sum + m.calls, 0);
  const share = cachedShare(usage);
  return [
    `Usage: ${n(calls)} model calls, ${n(totalTokens(usage))} tokens${share === null ? '' : ` (${Math.round(share * 100)}% of input cached)`}`,
    ...usage.models.map(
      (m) =>
        `  ${m.purpose.padEnd(13)} ${m.model.padEnd(14)} ${String(m.calls).padStart(4)} calls  ${n(m.inputTokens)} in${cached(m.inputTokens, m.cachedInputTokens)}, ${n(m.outputTokens)} out`,
    ),
  ];
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
