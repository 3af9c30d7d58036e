export type { ExtractedText } from '../../ports/document-reading.js';

/** Collapses runs of blank lines and trailing spaces that extraction leaves behind. */
export function tidyText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\f\v\u00a0]+\n/g, '\n')
    .replace(/\n[ \t\f\v\u00a0]+/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
