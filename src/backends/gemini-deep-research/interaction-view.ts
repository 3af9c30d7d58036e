/**
 * An interaction of Google's Interactions API as this backend reads it. The
 * wire shape changed between versions: newer answers list `steps`
 * (`thought`, `google_search_call`, `url_context_call`, `model_output` with
 * `content`), older ones `outputs` (content items typed `thought`, `text`…);
 * both are read, anything else is ignored.
 */

export type InteractionStatus =
  | 'queued'
  | 'in_progress'
  | 'requires_action'
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'incomplete'
  | 'budget_exceeded';

/** A span of the answer that cites a page; `start`/`end` are offsets in `text` (UTF-16, converted from bytes). */
export interface InteractionCitation {
  url: string;
  title: string;
  start: number;
  end: number;
}

export interface InteractionView {
  id: string;
  status: InteractionStatus | string;
  /** The last model output's text (the plan, or the report). */
  text: string;
  citations: InteractionCitation[];
  /** Progress, each with a stable id so it is shown once: reasoning summaries, searches, pages read. */
  thoughts: { id: string; text: string }[];
  searches: { id: string; queries: string[] }[];
  reads: { id: string; urls: string[] }[];
  usage?: { inputTokens: number; outputTokens: number; cachedInputTokens: number; searches: number };
  /** Why it failed or stopped short. */
  error?: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);

/** Reads an interaction; throws when the answer is not one (no id or status). */
export function readInteraction(raw: unknown): InteractionView {
  if (!isObject(raw) || typeof raw.id !== 'string' || typeof raw.status !== 'string')
    throw new Error('the answer is not an interaction (no id or status)');
  const steps = Array.isArray(raw.steps) ? list(raw.steps) : list(raw.outputs).map(asStep);
  const view: InteractionView = {
    id: raw.id,
    status: raw.status,
    text: '',
    citations: [],
    thoughts: [],
    searches: [],
    reads: [],
  };
  steps.forEach((step, i) => {
    if (!isObject(step)) return;
    const id = typeof step.id === 'string' ? step.id : `step:${i}`;
    const args = isObject(step.arguments) ? step.arguments : {};
    if (step.type === 'thought') {
      const said = list(step.summary)
        .map((c) => (isObject(c) ? text(c.text) : ''))
        .join('\n')
        .trim();
      if (said) view.thoughts.push({ id, text: said });
    } else if (step.type === 'google_search_call') {
      view.searches.push({ id, queries: list(args.queries).map(text).filter(Boolean) });
    } else if (step.type === 'url_context_call') {
      view.reads.push({ id, urls: list(args.urls).map(text).filter(Boolean) });
    } else if (step.type === 'model_output') {
      const parts = list(step.content).filter((c): c is Json => isObject(c) && c.type === 'text');
      if (parts.length) Object.assign(view, joined(parts));
      if (isObject(step.error) && typeof step.error.message === 'string') view.error = step.error.message;
    }
  });
  const errors = [raw.error, ...list(raw.errors)].flatMap((e) =>
    isObject(e) && typeof e.message === 'string' ? [e.message] : typeof e === 'string' ? [e] : [],
  );
  if (errors.length) view.error = errors.join('; ');
  if (isObject(raw.usage)) view.usage = usageOf(raw.usage);
  return view;
}

/** An older answer's output item as the step it would be now. */
function asStep(item: unknown): unknown {
  if (!isObject(item)) return item;
  if (item.type === 'text') return { type: 'model_output', content: [item] };
  if (item.type === 'thought')
    return { ...item, summary: item.summary ?? [{ type: 'text', text: item.text }] };
  return item;
}

/** Text parts with their citations, offsets made relative to the joined text and turned from bytes into characters. */
function joined(parts: Json[]): Pick<InteractionView, 'text' | 'citations'> {
  let all = '';
  const citations: InteractionCitation[] = [];
  for (const part of parts) {
    const body = text(part.text);
    const bytes = Buffer.from(body, 'utf8');
    const at = (offset: unknown) =>
      typeof offset === 'number' && offset >= 0 && offset <= bytes.length
        ? bytes.subarray(0, offset).toString('utf8').length
        : -1;
    for (const a of list(part.annotations)) {
      if (!isObject(a) || a.type !== 'url_citation' || typeof a.url !== 'string') continue;
      const start = at(a.start_index);
      const end = at(a.end_index);
      if (start < 0 || end < start) continue;
      citations.push({ url: a.url, title: text(a.title), start: all.length + start, end: all.length + end });
    }
    all += body;
  }
  return { text: all, citations };
}

function usageOf(u: Json): NonNullable<InteractionView['usage']> {
  const searches = list(u.grounding_tool_count)
    .filter((g): g is Json => isObject(g) && g.type === 'google_search')
    .reduce((sum, g) => sum + count(g.count), 0);
  return {
    inputTokens: count(u.total_input_tokens) + count(u.total_tool_use_tokens),
    // Thinking is billed as output.
    outputTokens: count(u.total_output_tokens) + count(u.total_thought_tokens),
    cachedInputTokens: count(u.total_cached_tokens),
    searches,
  };
}
