/** Readable text pulled out of a page or a file, with what it says about itself. */
export interface ExtractedText {
  title: string;
  text: string;
  author?: string;
  publishedAt?: string;
}

/** Collapses runs of blank lines and trailing spaces that extraction leaves behind. */
export function tidyText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\f\v\u00a0]+\n/g, '\n')
    .replace(/\n[ \t\f\v\u00a0]+/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
