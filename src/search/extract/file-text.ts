import { extname } from 'node:path';
import mammoth from 'mammoth';
import { documentKind, readDocument } from '../knowledge/read-document.js';
import { decodeText } from './decode-text.js';
import { tidyText } from './extracted-text.js';

/** What a file shared with a question may be: the knowledge base's kinds, Word documents and CSV tables. */
export const SHARED_KINDS = 'a PDF, Word (.docx), Markdown, text, HTML or CSV file';
const EXTRA = new Set(['.docx', '.csv']);

/** Whether research can read a file of this name (by its extension). */
export function readableFile(name: string): boolean {
  return Boolean(documentKind(name)) || EXTRA.has(extname(name).toLowerCase());
}

/** A shared file's readable text, by the kind its name says (Word through mammoth, CSV as it is). */
export async function fileText(name: string, bytes: Buffer): Promise<string> {
  const ext = extname(name).toLowerCase();
  if (ext === '.docx') return tidyText((await mammoth.extractRawText({ buffer: bytes })).value);
  if (ext === '.csv') return tidyText(decodeText(bytes, '', false));
  const kind = documentKind(name);
  if (!kind) throw new Error(`not ${SHARED_KINDS}`);
  return (await readDocument(kind, bytes, name)).text;
}
