import { sourceLabel } from '../ports/report-markdown.js';
import type { SessionStore } from '../sessions/records/session-store.js';
import { ReportAsking } from '../sessions/report-asking.js';
import type { Io } from './io.js';
import { sessionById } from './sessions-command.js';
import { renderForTerminal } from './terminal-markdown.js';

/**
 * `deep-research ask --about ID "question"`: a question about a finished
 * report, answered from the report and the sources its research kept (no new
 * research), printed with the sources it cites. Exit 0 when answered, 1 when
 * the sources do not answer it (with the command that would research it).
 */
export async function askAboutCommand(
  deps: { sessions: SessionStore; asking: ReportAsking; requester: string },
  id: string,
  question: string,
  io: Io,
): Promise<number> {
  if (!question.trim()) {
    io.stderr.write(
      'error: give a question, e.g. deep-research ask --about 3f2a "Which source says that?"\n',
    );
    return 2;
  }
  const row = await sessionById(deps.sessions, id, io);
  if (!row) return 2;
  if (row.deleted) {
    io.stderr.write(`error: session ${row.id.slice(0, 8)}'s report was deleted (by ${row.deleted.by}).\n`);
    return 1;
  }
  if (!ReportAsking.canAsk(row)) {
    io.stderr.write(
      `error: session ${row.id.slice(0, 8)} has no finished report to ask (it is ${row.status}).\n`,
    );
    return 1;
  }
  const asked = await deps.asking.ask(row, question.trim(), { userId: deps.requester, teamId: null });
  if (asked.kind === 'refused') {
    io.stderr.write(`${asked.sentence}\n`);
    return 1;
  }
  if (asked.kind === 'unanswered') {
    io.stdout.write(
      `The report and the sources its research read do not answer that. Research it with: deep-research ask ${JSON.stringify(question.trim())}\n`,
    );
    return 1;
  }
  const { markdown, sources } = asked.answer;
  const width = (io.stdout.columns ?? 100) - 1;
  io.stdout.write(`${io.stdout.isTTY ? renderForTerminal(markdown, width) : markdown}\n\n`);
  for (const s of sources) {
    const { title, detail } = sourceLabel(s);
    io.stdout.write(`[${s.n}] ${title}${detail ? ` (${detail})` : ''}${s.url ? `\n    ${s.url}` : ''}\n`);
  }
  return 0;
}
