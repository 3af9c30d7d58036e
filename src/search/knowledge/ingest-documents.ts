import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import { type DocumentReading, readKind } from '../../ports/document-reading.js';
import type { IngestOutcome, KnowledgeLibrary } from '../../ports/knowledge-library.js';
import type { DocumentKind, KnowledgeStore } from './knowledge-store.js';
import { splitPassages } from './split-passages.js';

/** The kinds of file the knowledge base takes, as a person is told. */
export const KNOWLEDGE_KINDS = 'Markdown, text, HTML or PDF';

/** The kind of document the knowledge base takes a file as, or undefined for files it does not take. */
export function knowledgeKind(name: string): DocumentKind | undefined {
  const kind = readKind(name);
  return kind === 'docx' || kind === 'csv' ? undefined : kind;
}

/** The knowledge base and the reader its documents go through. */
export interface Knowledge {
  store: KnowledgeStore;
  reader: DocumentReading;
}

/**
 * Ingests files and folders (recursively, skipping hidden entries and
 * node_modules) one file at a time, reporting each as it goes; a file that
 * cannot be read is reported and the rest carry on.
 */
export async function ingestDocuments(
  knowledge: Knowledge,
  paths: string[],
  report: (outcome: IngestOutcome) => void,
): Promise<void> {
  for (const given of paths) {
    const root = resolve(given);
    const info = await stat(root).catch(() => undefined);
    if (!info) {
      report({ path: root, result: 'missing', reason: 'no such file or folder' });
      continue;
    }
    if (info.isFile()) {
      report(await ingestFile(knowledge, root, true));
      continue;
    }
    const seen = new Set<string>();
    for await (const file of walk(root)) {
      seen.add(file);
      const outcome = await ingestFile(knowledge, file, false);
      if (outcome.result !== 'skipped') report(outcome);
    }
    for (const stored of await knowledge.store.listUnder(root, sep)) {
      if (!seen.has(stored.path)) report({ path: stored.path, result: 'gone' });
    }
  }
}

async function ingestFile(knowledge: Knowledge, path: string, named: boolean): Promise<IngestOutcome> {
  if (!knowledgeKind(path)) {
    return { path, result: 'skipped', reason: named ? `not a ${KNOWLEDGE_KINDS} file` : 'unsupported' };
  }
  try {
    const info = await stat(path);
    if (info.size > knowledge.reader.limits.maxFileBytes)
      return { path, result: 'failed', reason: knowledge.reader.tooBig(info.size).reason };
    const bytes = await readFile(path);
    return await ingestBytes(knowledge, { path, name: basename(path), bytes, modifiedAt: info.mtime });
  } catch (error) {
    return { path, result: 'failed', reason: (error as Error).message };
  }
}

/**
 * One document's bytes into the knowledge base under `path` (a file's, or a
 * Slack file's address): unchanged content is skipped, text is read by the
 * document reader (within its limits) by the kind its name says, split into
 * passages and stored.
 */
export async function ingestBytes(
  { store, reader }: Knowledge,
  file: { path: string; name: string; bytes: Buffer; modifiedAt: Date },
): Promise<IngestOutcome> {
  const { path, bytes } = file;
  const kind = knowledgeKind(file.name);
  if (!kind) return { path, result: 'skipped', reason: `not a ${KNOWLEDGE_KINDS} file` };
  try {
    const contentHash = createHash('sha256').update(bytes).digest('hex');
    const existing = await store.findByPath(path);
    if (existing?.contentHash === contentHash) return { path, result: 'unchanged' };
    const read = await reader.readFile(file.name, bytes);
    if (!read.ok) return { path, result: 'failed', reason: read.reason };
    const document = read.doc;
    const passages = splitPassages(document.title, document.text);
    if (passages.length === 0) return { path, result: 'failed', reason: 'no text found' };
    await store.saveDocument(
      { path, title: document.title, kind, contentHash, bytes: bytes.length, modifiedAt: file.modifiedAt },
      passages,
    );
    return { path, result: existing ? 'updated' : 'added', passages: passages.length };
  } catch (error) {
    return { path, result: 'failed', reason: (error as Error).message };
  }
}

async function* walk(dir: string): AsyncGenerator<string> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

/** The knowledge base as the library people keep: the port surfaces are handed. */
export function knowledgeLibrary(knowledge: Knowledge): KnowledgeLibrary {
  const { store } = knowledge;
  return {
    kinds: KNOWLEDGE_KINDS,
    takes: (name) => knowledgeKind(name) !== undefined,
    // Read when asked: a library that only lists or removes never starts the reader.
    get maxFileBytes() {
      return knowledge.reader.limits.maxFileBytes;
    },
    ingestPaths: (paths, report) => ingestDocuments(knowledge, paths, report),
    ingestBytes: (file) => ingestBytes(knowledge, file),
    list: () => store.list(),
    listUnder: (path, separator) => store.listUnder(path, separator),
    remove: (ids) => store.remove(ids),
  };
}
