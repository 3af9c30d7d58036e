/**
 * Full-text search for any of a text's words, ranked by how many and how
 * densely (a claim or a repeated question never uses exactly its source's
 * words, so "all words" finds too little): the words to bind, and the
 * tsquery expression that reads them from parameter `$n`.
 */
export function anyWords(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [])].slice(0, 40);
}

export function anyWordTsquery(param: number): string {
  return `to_tsquery('english', array_to_string(ARRAY(SELECT quote_literal(w) FROM unnest($${param}::text[]) AS w), ' | '))`;
}
