import type { z } from 'zod';
import { agents } from './agents/agents-backend.js';
import type { BackendModelPrice, BackendPlugin } from './backend-plugin.js';
import { deepResearchApi } from './deep-research-api/deep-research-api.js';
import { geminiDeepResearch } from './gemini-deep-research/gemini-deep-research.js';

/**
 * Every research backend, the default first: the one list. RESEARCH_BACKEND
 * picks the one that researches new sessions; all of them stay registered,
 * so a stored session is resumed, viewed and continued by the backend that
 * wrote its checkpoint.
 */
export const BACKENDS = [agents, deepResearchApi, geminiDeepResearch] as const;

type Backend = (typeof BACKENDS)[number];
export type BackendName = Backend['name'];
export const BACKEND_NAMES = BACKENDS.map((b) => b.name) as [BackendName, ...BackendName[]];

/** Items as a sentence lists them: "a, b or c". */
const orList = (items: string[]) =>
  items.length > 1 ? `${items.slice(0, -1).join(', ')} or ${items.at(-1)}` : (items[0] ?? '');

/** The names as a sentence says them: "agents, deep-research-api or …". */
export const BACKEND_CHOICES = orList(BACKEND_NAMES);

/** Each backend's settings, by name. */
export type BackendSettings = { [B in Backend as B['name']]: ReturnType<B['read']> };

type Intersect<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Every backend's own environment variables, for the one config schema. */
export const BACKEND_ENV = Object.assign({}, ...BACKENDS.map((b) => b.env)) as Intersect<Backend['env']>;
export const BACKEND_HINTS: Readonly<Record<string, string>> = Object.assign(
  {
    RESEARCH_BACKEND: `set it to ${orList(BACKENDS.map((b) => `${b.name} (${b.summary})`))}`,
  },
  ...BACKENDS.map((b) => ('hints' in b ? b.hints : {})),
);
export const BACKEND_PRICES: Readonly<Record<string, BackendModelPrice>> = Object.assign(
  {},
  ...BACKENDS.map((b) => ('prices' in b ? b.prices : {})),
);

/** Each backend's settings, read from the parsed environment. */
export function readBackendSettings(env: z.output<z.ZodObject<Intersect<Backend['env']>>>): BackendSettings {
  return Object.fromEntries(BACKENDS.map((b) => [b.name, b.read(env as never)])) as BackendSettings;
}

export function backendNamed(name: string): Backend | undefined {
  return BACKENDS.find((b) => b.name === name);
}

/** A backend with its settings, so callers need not know which one it is. */
export interface ConfiguredBackend {
  plugin: BackendPlugin;
  settings: unknown;
}

/** Every backend with its settings, and the one RESEARCH_BACKEND names. */
export function configuredBackends(research: { backend: BackendName; settings: BackendSettings }): {
  current: ConfiguredBackend;
  all: ConfiguredBackend[];
} {
  const all = BACKENDS.map((b) => ({ plugin: b as BackendPlugin, settings: research.settings[b.name] }));
  return { current: all.find((b) => b.plugin.name === research.backend)!, all };
}
