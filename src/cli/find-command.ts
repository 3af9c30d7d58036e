import type { ReportLibrary } from '../sessions/report-library.js';
import type { Io } from './io.js';

/** `deep-research find <words>`: the best matching finished reports, newest-and-best first, with their ids. */
export async function findCommand(library: ReportLibrary, words: string, io: Io): Promise<number> {
  if (!words.trim()) {
    io.stderr.write('error: say what to look for, e.g. deep-research find heat pumps\n');
    return 2;
  }
  const matches = await library.all(words);
  if (matches.length === 0) {
    io.stdout.write(
      `No report matches "${words}". Research it with: deep-research ask ${JSON.stringify(words)}\n`,
    );
    return 0;
  }
  for (const m of matches) {
    const where = m.origin === 'cli' ? 'terminal' : `Slack ${m.channelId ?? ''}`;
    const question = m.question.replace(/\s+/g, ' ');
    io.stdout.write(
      `${m.id.slice(0, 8)}  ${m.createdAt.toISOString().slice(0, 10)}  ${m.sources} source${m.sources === 1 ? '' : 's'}  ${m.requester} (${where})\n  ${question}\n`,
    );
  }
  io.stdout.write(
    'See one with: deep-research sessions show ID, or ask it: deep-research ask --about ID "question"\n',
  );
  return 0;
}
