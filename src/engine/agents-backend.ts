import type { ResearchBackend } from '../ports/research.js';
import { engineBackend } from './engine-backend.js';
import { AGENTS, continueResearch } from './run-session.js';
import type { EngineBase } from './session-context.js';
import type { EngineSettings } from './settings.js';

/** The engine's own research (an orchestrator dispatching research agents) as a backend. */
export function agentsBackend(engine: () => Promise<EngineBase>, settings: EngineSettings): ResearchBackend {
  return engineBackend('agents', AGENTS, engine, settings, continueResearch);
}
