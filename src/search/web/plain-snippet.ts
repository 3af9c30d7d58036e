import { decodeHTML } from 'entities';

/** Providers decorate snippets (`<strong>`, `&amp;`); the model wants plain text. */
export function plainSnippet(text: string | null | undefined): string {
  if (!text) return '';
  return decodeHTML(text.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}
