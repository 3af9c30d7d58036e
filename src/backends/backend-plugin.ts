/**
 * A research backend as a plug-in: one object in its own folder, listed once
 * in `backend-list.ts`. It brings its settings (its own environment
 * variables, read by its own schema), says what it needs before a session
 * starts, what a run costs without history, which hosted models it watches,
 * and builds the `ResearchBackend` the session room runs. Nothing outside
 * its folder and the list names it.
 */
import type { z } from 'zod';
import type { CostFromSettings } from '../engine/estimate.js';
import type { EngineBase } from '../engine/session-context.js';
import type { EngineSettings } from '../engine/settings.js';
import type { ServerAccess } from '../llm/model-catalog.js';
import type { ModelLifecycle } from '../llm/model-lifecycle.js';
import type { ResponseEndings } from '../llm/response-endings.js';
import type { Logger } from '../ports/logger.js';
import type { ResearchBackend } from '../ports/research.js';

/** USD per million tokens, as MODEL_PRICES takes them. */
export interface BackendModelPrice {
  input: number;
  output: number;
  cachedInput?: number;
}

/** The shared model server's settings (OPENAI_*), which a backend may fall back on. */
export interface SharedAccess {
  apiKey?: string;
  baseURL?: string;
  maxRetries: number;
}

/** A hosted model the backend runs, watched for shutdowns like the research models. */
export interface BackendModel {
  variable: string;
  model: string;
  server: ServerAccess;
  addressVariable: string;
}

/** What a backend's `build` is given: the process's adapters, never the whole config. */
export interface BackendDeps {
  /** The engine's adapters (model, page reader, source store…), built on first use. */
  engine: () => Promise<EngineBase>;
  settings: EngineSettings;
  logger: Logger;
  shared: SharedAccess;
  /** The configured models' lifecycle: a refused model is said with the variable that names it. */
  models: ModelLifecycle;
  /** Webhook notices of ended hosted requests, when this process takes them. */
  endings?: ResponseEndings;
}

export interface BackendPlugin<
  Env extends z.ZodRawShape = z.ZodRawShape,
  Settings = unknown,
  Name extends string = string,
> {
  /** RESEARCH_BACKEND's value, kept in every checkpoint it writes. */
  readonly name: Name;
  /** What it is, in a few words (help, errors). */
  readonly summary: string;
  /** Its environment variables and their schemas (merged into the one config schema). */
  readonly env: Env;
  /** What to set each of its variables to when one is invalid. */
  readonly hints?: Readonly<Record<string, string>>;
  /** Its settings, from its parsed variables. */
  read(env: z.output<z.ZodObject<Env>>): Settings;
  /** TIME_BUDGET_MINUTES when unset, for sessions it researches. */
  readonly timeBudgetMinutes: number;
  /** It searches by itself (a hosted agent): research needs no search provider or documents of ours. */
  readonly searchesItself: boolean;
  /** USD per 1,000 searches its hosted model makes (HOSTED_SEARCH_PRICE_PER_1K overrides it). */
  readonly searchPricePer1k?: number;
  /** Token prices of its hosted models (MODEL_PRICES overrides them). */
  readonly prices?: Readonly<Record<string, BackendModelPrice>>;
  /** The settings it lacks to research, as one sentence naming the variable to set, or undefined. */
  missing?(settings: Settings, shared: SharedAccess): string | undefined;
  /** Its hosted models, watched for shutdowns (left out when it has no access). */
  models?(settings: Settings, shared: SharedAccess): BackendModel[];
  /** What a run costs without history (null: the agents' estimate). */
  costWithoutHistory?(settings: Settings): CostFromSettings;
  build(deps: BackendDeps, settings: Settings): ResearchBackend;
}

/** Declares a backend (the identity function, typing `read` from `env`). */
export function backendPlugin<const Name extends string, const Env extends z.ZodRawShape, Settings>(
  plugin: BackendPlugin<Env, Settings, Name>,
): BackendPlugin<Env, Settings, Name> {
  return plugin;
}
