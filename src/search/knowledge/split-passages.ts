export interface Passage {
  /** The headings the passage sits under, outermost first: "Handbook › Heating › Night setback". */
  heading: string;
  body: string;
}

/**
 * Splits a document into passages of whole paragraphs, up to `maxChars` each,
 * starting a new passage at every heading and remembering the headings above
 * it; a paragraph longer than a passage is cut at sentence ends.
 */
export function splitPassages(title: string, text: string, maxChars = 1200): Passage[] {
  const passages: Passage[] = [];
  const trail: string[] = [];
  let body: string[] = [];
  let size = 0;
  const heading = () => [title, ...trail].filter((part, i, all) => part && part !== all[i - 1]).join(' › ');
  const flush = () => {
    if (body.length > 0) passages.push({ heading: heading(), body: body.join('\n\n') });
    body = [];
    size = 0;
  };
  for (const block of text.split(/\n\s*\n/)) {
    const paragraph = block.trim();
    if (!paragraph) continue;
    const marker = /^(#{1,6})\s+(.+)$/.exec(paragraph.split('\n')[0]!);
    if (marker) {
      flush();
      trail.length = marker[1]!.length - 1;
      trail.push(marker[2]!.trim());
      const rest = paragraph.split('\n').slice(1).join('\n').trim();
      if (!rest) continue;
      for (const piece of pieces(rest, maxChars)) add(piece);
      continue;
    }
    for (const piece of pieces(paragraph, maxChars)) add(piece);
  }
  flush();
  return passages;

  function add(piece: string) {
    if (size > 0 && size + piece.length > maxChars) flush();
    body.push(piece);
    size += piece.length + 2;
  }
}

function pieces(paragraph: string, maxChars: number): string[] {
  if (paragraph.length <= maxChars) return [paragraph];
  const out: string[] = [];
  let current = '';
  for (const sentence of paragraph.match(/[^.!?\n]+(?:[.!?]+|\n|$)\s*/g) ?? [paragraph]) {
    if (current && current.length + sentence.length > maxChars) {
      out.push(current.trim());
      current = '';
    }
    current += sentence;
    while (current.length > maxChars) {
      out.push(current.slice(0, maxChars).trim());
      current = current.slice(maxChars);
    }
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
