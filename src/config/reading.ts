import { z } from 'zod';
import { READ_DEFAULTS, type ReadLimits } from '../ports/document-reading.js';
import { positiveInt, positiveNumber } from '../ports/env-values.js';

const MB = 1_048_576;

/** The variables of the untrusted-input budget (every document read goes through one reader), for the config schema. */
export const READING_FIELDS = {
  // The largest file read (shared in Slack, given with ask --file, added to the knowledge base), in megabytes.
  FILE_MAX_MB: positiveNumber.default(READ_DEFAULTS.maxFileBytes / MB),
  // What a compressed document (a .docx) may unpack to, in megabytes.
  READ_MAX_UNPACKED_MB: positiveNumber.default(READ_DEFAULTS.maxInflatedBytes / MB),
  // Characters of one document's text kept; the rest is cut with a note.
  READ_MAX_CHARS: positiveInt.default(READ_DEFAULTS.maxChars),
  // How long extracting one document's text may take before its reading thread is stopped.
  READ_MAX_SECONDS: positiveNumber.default(READ_DEFAULTS.maxMs / 1000),
  // The memory a reading thread may use before it is stopped, in megabytes.
  READ_MAX_MEMORY_MB: z.coerce.number().int().min(64).default(READ_DEFAULTS.maxMemoryMb),
};

type ReadingEnv = { [K in keyof typeof READING_FIELDS]: z.output<(typeof READING_FIELDS)[K]> };

export function readLimits(e: ReadingEnv): ReadLimits {
  return {
    maxFileBytes: Math.round(e.FILE_MAX_MB * MB),
    maxInflatedBytes: Math.round(e.READ_MAX_UNPACKED_MB * MB),
    maxChars: e.READ_MAX_CHARS,
    maxMs: Math.round(e.READ_MAX_SECONDS * 1000),
    maxMemoryMb: e.READ_MAX_MEMORY_MB,
  };
}
