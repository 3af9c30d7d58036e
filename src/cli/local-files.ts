import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { type ReadLimits, readKind, SHARED_KINDS } from '../ports/document-reading.js';
import type { SharedFile } from '../ports/research.js';
import type { FetchGivenFile } from '../sessions/read-given-files.js';

/**
 * `ask --file PATH`: the files given with the question, found and checked
 * (a file, of a kind research reads, within FILE_MAX_MB) before anything
 * runs; reading them is the session's first step (readGivenFiles). A path
 * that fails the check refuses the command, in one line naming it and why:
 * a person who named a file expects it read.
 */
export async function findLocalFiles(
  paths: string[],
  limits: Pick<ReadLimits, 'maxFileBytes'>,
): Promise<{ files: SharedFile[] } | { refusal: string }> {
  const files: SharedFile[] = [];
  for (const given of paths) {
    const path = resolve(given);
    const name = basename(path);
    const info = await stat(path).catch(() => undefined);
    const why = !info?.isFile()
      ? 'there is no such file'
      : !readKind(name)
        ? `it is not ${SHARED_KINDS}`
        : info.size > limits.maxFileBytes
          ? `it is larger than FILE_MAX_MB (${Math.round(limits.maxFileBytes / 1_048_576)} MB)`
          : undefined;
    if (why) return { refusal: `cannot research with --file ${given}: ${why}.` };
    const key = `file:${createHash('sha256').update(path).digest('hex').slice(0, 16)}`;
    files.push({ key, name, from: path, size: info!.size });
  }
  return { files };
}

/** Where a terminal's given files come from: its own disk, at most `maxBytes` (a file may have grown). */
export const localFileFetcher: FetchGivenFile = async (file, maxBytes) => {
  const handle = await open(file.from, 'r');
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) throw new Error(`it grew to ${size} bytes, more than FILE_MAX_MB allows`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
};
