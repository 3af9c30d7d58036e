import type { IncomingHttpHeaders } from 'node:http';
import mammoth from 'mammoth';
import { megabytes, type ReadKind } from '../../ports/document-reading.js';
import { botChallenge } from '../pages/bot-challenge.js';
import { decodeText } from './decode-text.js';
import { extractHtml } from './extract-html.js';
import { extractPdf } from './extract-pdf.js';
import { type ExtractedText, tidyText } from './extracted-text.js';
import { zipInflatedBytes } from './zip-inflated-bytes.js';

/** One document to read, as it crosses to a reading thread. */
export interface ExtractTask {
  kind: ReadKind;
  bytes: Uint8Array;
  /** The file's name (its title when the document declares none), or '' for a page. */
  name: string;
  /** The Content-Type a server sent (its charset), or ''. */
  contentType: string;
  /** A page's response headers: an HTML page is then checked for a bot check. */
  headers?: IncomingHttpHeaders;
  maxInflatedBytes: number;
  maxChars: number;
}

export type ExtractResult =
  | {
      ok: true;
      doc: ExtractedText;
      chars: number;
      /** A PDF whose reading stopped at the character limit: the pages read, of how many. */
      pages?: { read: number; of: number };
      botCheck?: string;
    }
  | { ok: false; reason: string };

/**
 * Runs in a reading thread (`read-worker.mjs`): a document's text and what it
 * says about itself, at most `maxChars` characters of it (`chars` is how many
 * there were). A Word file whose parts unpack to more than `maxInflatedBytes`
 * is refused before anything is unpacked.
 */
export async function extractDocument(task: ExtractTask): Promise<ExtractResult> {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  const fallbackTitle = task.name.replace(/\.[^.]+$/, '');
  let doc: ExtractedText;
  let botCheck: string | undefined;
  let unread: { read: number; of: number } | undefined;
  if (task.kind === 'pdf') {
    const { pages, ...pdf } = await extractPdf(bytes, task.maxChars);
    doc = pdf;
    if (pages.read < pages.of) unread = pages;
  } else if (task.kind === 'docx') {
    const inflated = zipInflatedBytes(bytes, (name) => /\.(xml|rels)$/i.test(name));
    if (inflated > task.maxInflatedBytes)
      return {
        ok: false,
        // Rounded up, so a file just past the limit never reads as "8 MB, more than the 8 MB allowed".
        reason: `it unpacks to ${megabytes(inflated, Math.ceil)} of text, more than the ${megabytes(task.maxInflatedBytes)} allowed`,
      };
    doc = { title: '', text: tidyText(await wordText(bytes)) };
  } else {
    const text = decodeText(bytes, task.contentType, task.kind === 'html');
    if (task.kind === 'html') {
      doc = extractHtml(text, task.maxChars);
      if (task.headers) botCheck = botChallenge(text, task.headers, doc.text.length);
    } else if (task.kind === 'markdown') doc = markdown(text);
    else doc = { title: task.kind === 'text' ? firstHeading(text) : '', text: tidyText(text) };
  }
  const chars = doc.text.length;
  return {
    ok: true,
    doc: { ...doc, title: doc.title || fallbackTitle, text: doc.text.slice(0, task.maxChars) },
    chars,
    ...(unread ? { pages: unread } : {}),
    ...(botCheck ? { botCheck } : {}),
  };
}

/** Front matter's `title:`, else the first heading; the body without the front matter. */
function markdown(text: string): ExtractedText {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  const body = match ? text.slice(match[0].length) : text;
  const declared = match && /^title:\s*["']?(.+?)["']?\s*$/m.exec(match[1]!)?.[1];
  return { title: declared || firstHeading(body), text: tidyText(body) };
}

/** A Markdown-style first heading near the top, else nothing. */
function firstHeading(text: string): string {
  return /^#\s+(.+)$/m.exec(text.slice(0, 2000))?.[1]?.trim() ?? '';
}

/** A Word file's text (mammoth); a zip whose parts are not what its directory declares is said plainly. */
async function wordText(bytes: Buffer): Promise<string> {
  try {
    return (await mammoth.extractRawText({ buffer: bytes })).value;
  } catch (error) {
    if (/size mismatch|crc32/i.test((error as Error).message))
      throw new Error('it is not a valid Word file (its parts are not the sizes its zip directory declares)');
    throw error;
  }
}
