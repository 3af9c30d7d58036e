import { relative, resolve, sep } from 'node:path';
import type { IngestOutcome, KnowledgeLibrary } from '../ports/knowledge-library.js';
import type { Io } from './io.js';

/** `deep-research kb ingest PATH...`: one line per file as it is done, then a summary. */
export async function kbIngest(library: KnowledgeLibrary, paths: string[], io: Io): Promise<number> {
  if (paths.length === 0) {
    io.stderr.write('error: name the files or folders to ingest: deep-research kb ingest PATH...\n');
    return 2;
  }
  const counts: Record<IngestOutcome['result'], number> = {
    added: 0,
    updated: 0,
    unchanged: 0,
    skipped: 0,
    failed: 0,
    missing: 0,
    gone: 0,
  };
  await library.ingestPaths(paths, (outcome) => {
    counts[outcome.result] += 1;
    io.stdout.write(`${describe(outcome)}\n`);
  });
  const total = (await library.list()).length;
  const parts = (['added', 'updated', 'unchanged', 'skipped', 'failed', 'missing'] as const)
    .filter((k) => counts[k] > 0)
    .map((k) => `${counts[k]} ${k}`);
  io.stdout.write(
    `${parts.length ? parts.join(', ') : `No supported files found (${library.kinds})`}. ` +
      `The knowledge base holds ${plural(total, 'document')}.\n`,
  );
  if (counts.gone > 0) {
    io.stdout.write(`Forget files that no longer exist with: deep-research kb remove PATH\n`);
  }
  return counts.failed + counts.missing + counts.skipped > 0 ? 1 : 0;
}

/** `deep-research kb list`: every document with its size in passages and when it was ingested. */
export async function kbList(store: KnowledgeLibrary, io: Io): Promise<number> {
  const documents = await store.list();
  if (documents.length === 0) {
    io.stdout.write('The knowledge base is empty. Add documents with: deep-research kb ingest PATH...\n');
    return 0;
  }
  for (const d of documents) {
    const when = d.ingestedAt.toISOString().slice(0, 16).replace('T', ' ');
    io.stdout.write(
      `${when}  ${plural(d.passages, 'passage').padStart(12)}  ${d.kind.padEnd(8)}  ${shown(d.path)}  ${d.title}\n`,
    );
  }
  io.stdout.write(`${plural(documents.length, 'document')}.\n`);
  return 0;
}

/** `deep-research kb remove PATH...`: a file, or every document under a folder. */
export async function kbRemove(store: KnowledgeLibrary, paths: string[], io: Io): Promise<number> {
  if (paths.length === 0) {
    io.stderr.write('error: name the files or folders to remove: deep-research kb remove PATH...\n');
    return 2;
  }
  let missing = 0;
  for (const given of paths) {
    const documents = await store.listUnder(resolve(given), sep);
    if (documents.length === 0) {
      io.stderr.write(`error: nothing ingested at ${given}; see deep-research kb list.\n`);
      missing += 1;
      continue;
    }
    await store.remove(documents.map((d) => d.id));
    for (const d of documents) io.stdout.write(`removed    ${shown(d.path)}\n`);
  }
  return missing > 0 ? 1 : 0;
}

function describe(outcome: IngestOutcome): string {
  const path = shown(outcome.path);
  switch (outcome.result) {
    case 'added':
    case 'updated':
      return `${outcome.result.padEnd(10)} ${path} (${plural(outcome.passages, 'passage')})`;
    case 'unchanged':
      return `unchanged  ${path}`;
    case 'gone':
      return `gone       ${path} (no longer on disk; still in the knowledge base)`;
    default:
      return `${outcome.result.padEnd(10)} ${path}: ${outcome.reason}`;
  }
}

/** Paths under the current folder are shown relative to it, others in full. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
