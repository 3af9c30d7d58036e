import { ProviderError } from '../ports/errors.js';
import type { ResearchWork } from './research-work.js';
import type { AgentRecord, SessionState } from './session-state.js';

/** The dependencies the research tools call, and what the person should check when one never works. */
const DEPENDENCIES = {
  model: { name: 'the model server', fix: 'the model server (OPENAI_BASE_URL and the model names)' },
  'web search': { name: 'web search', fix: 'the search provider (SEARCH_PROVIDER and its key or URL)' },
  'knowledge base': { name: 'the knowledge base', fix: 'the database that holds it (DATABASE_URL)' },
  'deep research': {
    name: 'the deep-research API',
    fix: 'the deep-research API settings (DEEP_RESEARCH_BASE_URL, DEEP_RESEARCH_API_KEY, DEEP_RESEARCH_MODEL)',
  },
} as const;
export type Dependency = keyof typeof DEPENDENCIES;

/** Records one failed call to a dependency and its cause. */
export function noteFailure(state: SessionState, dependency: Dependency, cause: string): void {
  const before = state.failures?.[dependency];
  state.failures = {
    ...state.failures,
    [dependency]: { ...before, count: (before?.count ?? 0) + 1, last: cause },
  };
}

/** What a model answer without tool calls said, for naming an unusable answer. */
export function textOnlyAnswer(text: string): string {
  const said = text.replace(/\s+/g, ' ').trim();
  return said
    ? `it answered in text instead of calling a tool: "${said.length > 80 ? `${said.slice(0, 80)}…` : said}"`
    : 'it sent an empty answer instead of calling a tool';
}

/** Records that a call to a dependency answered (even with nothing): it is not down, whatever fails later. */
export function noteWorked(state: SessionState, dependency: Dependency): void {
  const record = state.failures?.[dependency];
  if (record?.worked) return;
  state.failures = {
    ...state.failures,
    [dependency]: { count: record?.count ?? 0, last: record?.last ?? '', worked: true },
  };
}

/**
 * Why research produced nothing to report on, as an error naming the cause,
 * or null when there is something (or it simply found nothing, which is
 * only said when the model worked): a model whose research answers were all
 * unusable (malformed, invalid tool arguments, no tool calls, a refusal), a
 * search dependency that failed every time it was tried, or every agent failing.
 */
export function nothingResearched(
  state: SessionState,
  modelServer?: string,
  work?: ResearchWork,
): ProviderError | null {
  if (state.sources.length > 0) return null;
  const broken = neverWorked(state).filter(([d]) => d !== 'model');
  if (broken.length > 0) {
    const subject =
      broken.length === 1
        ? `${DEPENDENCIES[broken[0]![0]].name} failed every time it was tried (${broken[0]![1].last})`
        : `${broken.map(([d, r]) => `${DEPENDENCIES[d].name} (${r.last})`).join(' and ')} failed every time they were tried`;
    const fixes = broken.map(([d]) => DEPENDENCIES[d].fix).join(' and ');
    return new ProviderError(
      'search_unavailable',
      `${capitalise(subject)}, so nothing could be researched: check ${fixes} and try again.`,
      false,
    );
  }
  const agents = everyAgentFailed(state, work);
  const check = work?.check ?? 'the model server';
  if (agents)
    return new ProviderError(
      'research_failed',
      `${agents}, so there is nothing to report: try again later, or check ${check} if it keeps happening.`,
      false,
    );
  // "Found nothing" is only true of a model that worked: one whose every research answer was unusable is the cause.
  const model = neverWorked(state).find(([d]) => d === 'model');
  if (model) {
    const where = modelServer ? ` at ${modelServer}` : '';
    return new ProviderError(
      'model_unusable',
      `The model server${where} sent answers the research could not use (${model[1].last}), so nothing was researched: check OPENAI_BASE_URL and the model names, or try again later.`,
      false,
    );
  }
  return null;
}

/** The research work of a session as records: its agents, or the backend's own pieces of work, and what to call them. */
export function researchWork(
  state: SessionState,
  work?: ResearchWork,
): { records: AgentRecord[]; noun: string } {
  return work
    ? { records: work.records(state), noun: work.noun }
    : { records: state.agents, noun: 'research agent' };
}

/** "Every research agent failed (reasons)" when they all did, else null. */
export function everyAgentFailed(state: SessionState, work?: ResearchWork): string | null {
  const { records, noun } = researchWork(state, work);
  const failed = records.filter((a) => a.status === 'failed');
  if (failed.length === 0 || failed.length < records.length) return null;
  return `Every ${noun} failed (${[...new Set(failed.map((a) => a.error ?? 'unknown error'))].join('; ')})`;
}

function neverWorked(state: SessionState): [Dependency, { last: string }][] {
  return (Object.keys(DEPENDENCIES) as Dependency[]).flatMap((d) => {
    const record = state.failures?.[d];
    // Checkpoints from before `worked` existed: a web search that answered left its results in `searches`.
    const worked = record?.worked || (d === 'web search' && Object.keys(state.searches).length > 0);
    return record && !worked ? [[d, record] as [Dependency, { last: string }]] : [];
  });
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
