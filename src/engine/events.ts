export type { AgentActivity, EmitEvent, ResearchEvent } from '../ports/research.js';
