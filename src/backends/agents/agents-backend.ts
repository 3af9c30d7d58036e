import { engineBackend } from '../../engine/engine-backend.js';
import { AGENTS, continueResearch } from '../../engine/run-session.js';
import type { EngineBase } from '../../engine/session-context.js';
import type { EngineSettings } from '../../engine/settings.js';
import type { ResearchBackend } from '../../ports/research.js';
import { backendPlugin } from '../backend-plugin.js';

/** The engine's own research (an orchestrator dispatching research agents) as a backend. */
export function agentsBackend(engine: () => Promise<EngineBase>, settings: EngineSettings): ResearchBackend {
  return engineBackend('agents', AGENTS, engine, settings, continueResearch);
}

/** The default backend: the engine's orchestrator and research agents, on OPENAI_BASE_URL with our search. */
export const agents = backendPlugin({
  name: 'agents',
  summary: "the engine's own research agents",
  env: {},
  read: () => ({}),
  timeBudgetMinutes: 20,
  searchesItself: false,
  build: (deps) => agentsBackend(deps.engine, deps.settings),
});
