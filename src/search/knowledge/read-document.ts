import { extname } from 'node:path';
import { decodeText } from '../extract/decode-text.js';
import { extractHtml } from '../extract/extract-html.js';
import { extractPdf } from '../extract/extract-pdf.js';
import { type ExtractedText, tidyText } from '../extract/extracted-text.js';
import type { DocumentKind } from './knowledge-store.js';

const KINDS: Record<string, DocumentKind> = {
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.mdx': 'markdown',
  '.txt': 'text',
  '.text': 'text',
  '.html': 'html',
  '.htm': 'html',
  '.pdf': 'pdf',
};

/** The kind of document a file name says it is, or undefined for files the knowledge base does not take. */
export function documentKind(path: string): DocumentKind | undefined {
  return KINDS[extname(path).toLowerCase()];
}

/** A file's readable text and title (front matter or first heading for Markdown, else the file name). */
export async function readDocument(
  kind: DocumentKind,
  bytes: Buffer,
  fileName: string,
): Promise<ExtractedText> {
  const fallbackTitle = fileName.replace(/\.[^.]+$/, '');
  if (kind === 'pdf') {
    const pdf = await extractPdf(bytes);
    return { ...pdf, title: pdf.title || fallbackTitle };
  }
  const text = decodeText(bytes, '', kind === 'html');
  if (kind === 'html') {
    const page = extractHtml(text);
    return { ...page, title: page.title || fallbackTitle };
  }
  if (kind === 'markdown') {
    const { title, body } = frontMatter(text);
    const heading = /^#\s+(.+)$/m.exec(body)?.[1]?.trim();
    return { title: title ?? heading ?? fallbackTitle, text: tidyText(body) };
  }
  return { title: fallbackTitle, text: tidyText(text) };
}

/** Drops a leading `---` YAML block, keeping its `title:` if it has one. */
function frontMatter(text: string): { title?: string; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!match) return { body: text };
  const title = /^title:\s*["']?(.+?)["']?\s*$/m.exec(match[1]!)?.[1];
  return { title, body: text.slice(match[0].length) };
}
