import { ConfigError } from '../ports/errors.js';
import type { Checkpoint, ResearchBackend, SessionView } from '../ports/research.js';

/**
 * The research backends this process runs: `current` researches new
 * sessions; a stored session stays with the backend that wrote its
 * checkpoint (continued, viewed and resumed by it).
 */
export interface ResearchBackends {
  readonly current: ResearchBackend;
  of(checkpoint: Checkpoint): ResearchBackend;
  view(checkpoint: Checkpoint): SessionView;
}

export function researchBackends(current: ResearchBackend, others: ResearchBackend[] = []): ResearchBackends {
  const byName = new Map([...others, current].map((b) => [b.name, b]));
  const of = (checkpoint: Checkpoint) => {
    const backend = byName.get(checkpoint.backend);
    if (!backend)
      throw new ConfigError(
        'research_backend',
        `This session was researched with the ${checkpoint.backend} backend, which this process does not run; run it where RESEARCH_BACKEND=${checkpoint.backend} is set up.`,
      );
    return backend;
  };
  return { current, of, view: (checkpoint) => of(checkpoint).view(checkpoint) };
}
