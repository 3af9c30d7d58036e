import pLimit from 'p-limit';
import { Piscina } from 'piscina';
import {
  type DocumentInput,
  type DocumentReading,
  megabytes,
  READ_DEFAULTS,
  type ReadLimits,
  type ReadOutcome,
  readKind,
  SHARED_KINDS,
} from '../../ports/document-reading.js';
import type { ExtractResult, ExtractTask } from './extract-document.js';

/**
 * The one reader of untrusted documents (pages, PDFs, Word files, HTML,
 * CSV, thread files, knowledge-base uploads): text is extracted in worker
 * threads with a memory limit and a time limit, so a document that inflates,
 * stalls or crashes a parser stops its thread, not the process, and the
 * event loop (Slack's acks, /healthz) never waits on a parser. Every limit
 * it meets is an outcome with a reason a person can read.
 */
export class DocumentReader implements DocumentReading {
  private readonly pool: Piscina<ExtractTask, ExtractResult>;

  /** One document per thread: a read's time limit starts when its thread takes it, not while it queues. */
  private readonly threads: ReturnType<typeof pLimit>;

  constructor(
    readonly limits: ReadLimits = READ_DEFAULTS,
    threads = 2,
  ) {
    this.threads = pLimit(threads);
    this.pool = new Piscina({
      filename: new URL('./read-worker.mjs', import.meta.url).href,
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 30_000,
      resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb },
    });
  }

  /** The document's text within the limits; a read the caller aborts rejects with its reason. */
  read(input: DocumentInput, signal?: AbortSignal): Promise<ReadOutcome> {
    return this.threads(async () => {
      signal?.throwIfAborted();
      const expired = AbortSignal.timeout(this.limits.maxMs);
      const task: ExtractTask = {
        kind: input.kind,
        bytes: input.bytes,
        name: input.name ?? '',
        contentType: input.contentType ?? '',
        ...(input.headers ? { headers: input.headers } : {}),
        maxInflatedBytes: this.limits.maxInflatedBytes,
        maxChars: this.limits.maxChars,
      };
      try {
        const result = await this.pool.run(task, {
          signal: signal ? AbortSignal.any([signal, expired]) : expired,
        });
        if (!result.ok) return { ok: false, kind: 'too_large', reason: result.reason };
        return {
          ok: true,
          doc: result.doc,
          ...(result.botCheck ? { botCheck: result.botCheck } : {}),
          ...(result.chars > this.limits.maxChars ? { note: this.cutNote(result) } : {}),
        };
      } catch (error) {
        signal?.throwIfAborted();
        if (expired.aborted)
          return {
            ok: false,
            kind: 'too_slow',
            reason: `reading it took longer than ${this.limits.maxMs / 1000} s`,
          };
        if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY')
          return {
            ok: false,
            kind: 'too_large',
            reason: `reading it needs more than ${megabytes(this.limits.maxMemoryMb * 1_048_576)} of memory`,
          };
        return { ok: false, kind: 'unreadable', reason: (error as Error).message };
      }
    });
  }

  /**
   * A file's text, by the kind its name says, within the limits: a file of
   * another kind, over FILE_MAX_MB or with no text is an outcome too.
   */
  async readFile(name: string, bytes: Uint8Array, signal?: AbortSignal): Promise<ReadOutcome> {
    const kind = readKind(name);
    if (!kind) return { ok: false, kind: 'unreadable', reason: `not ${SHARED_KINDS}` };
    if (bytes.byteLength > this.limits.maxFileBytes) return this.tooBig(bytes.byteLength);
    const read = await this.read({ kind, bytes, name }, signal);
    if (read.ok && !read.doc.text.trim())
      return {
        ok: false,
        kind: 'unreadable',
        reason: `no text found${kind === 'pdf' ? ' (a scanned PDF needs text recognition first)' : ''}`,
      };
    return read;
  }

  private cutNote({ chars, pages }: { chars: number; pages?: { read: number; of: number } }): string {
    const kept = this.limits.maxChars.toLocaleString('en');
    return pages
      ? `only its first ${kept} characters were kept (${pages.read.toLocaleString('en')} of its ${pages.of.toLocaleString('en')} pages)`
      : `only the first ${kept} of its ${chars.toLocaleString('en')} characters were kept`;
  }

  /** A file of `size` bytes, refused before it is read. */
  tooBig(size: number): ReadOutcome & { ok: false } {
    return {
      ok: false,
      kind: 'too_large',
      reason: `larger than ${megabytes(this.limits.maxFileBytes)} (${megabytes(size)})`,
    };
  }

  /** Stops the reading threads (reads under way are abandoned). */
  async close(): Promise<void> {
    this.threads.clearQueue();
    await this.pool.destroy();
  }
}
