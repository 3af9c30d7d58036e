import { ConfigError } from '../ports/errors.js';
import type { Logger } from '../ports/logger.js';
import type { ModelStanding } from '../ports/model-standing.js';
import { ModelApis } from './model-apis.js';
import {
  type ListedModel,
  type ModelCatalog,
  readModelCatalog,
  type ServerAccess,
  serverAddress,
} from './model-catalog.js';

/** A model the settings name, and where it is served. */
export interface WatchedModel {
  /** The variable that sets it (RESEARCH_MODEL, DEEP_RESEARCH_MODEL…): the fix a sentence names. */
  variable: string;
  model: string;
  server: ServerAccess;
  /** The variable that points at the server (OPENAI_BASE_URL, DEEP_RESEARCH_BASE_URL). */
  addressVariable: string;
  /** Which price entry prices it ("none: set MODEL_PRICES" when none). */
  priceSource: string;
  /** A research model, called on the API `ModelApis` chooses (a hosted backend's model has its own). */
  apiChosen?: boolean;
}

/** A shutdown this close (days) is warned about at start and in /healthz. */
export const SHUTDOWN_WARNING_DAYS = 60;
const DAY_MS = 86_400_000;
/** A server's model list is read at most this often. */
const CATALOG_CACHE_MS = 60 * 60_000;

/**
 * Shut down before `GET /models` carried dates (OpenAI's deprecations page,
 * entry of 2026-04-22): named with their date when they are configured.
 */
const KNOWN_SHUTDOWNS: Record<string, string> = {
  'o3-deep-research': '2026-07-23',
  'o3-deep-research-2025-06-26': '2026-07-23',
  'o4-mini-deep-research': '2026-07-23',
  'o4-mini-deep-research-2025-06-26': '2026-07-23',
};

/** Listed models that are not for research (embeddings, speech, images, moderation…): never suggested. */
const NOT_FOR_RESEARCH =
  /embed|tts|whisper|dall-e|image|audio|realtime|transcribe|moderation|search-api|davinci|babbage|sora|codex/i;

/**
 * Watches the configured models' lifecycle: each server's model list is read
 * once (cached an hour), and a model it does not offer, one it shuts down
 * within 60 days, one without a price, and a model the server refused at a
 * call are each named in one sentence with the fix, for the log at start,
 * `/healthz`, `deep-research doctor` and the person whose research stops.
 */
export class ModelLifecycle {
  private readonly catalogs = new Map<string, { at: number; catalog: Promise<ModelCatalog> }>();
  private readonly refusals = new Map<string, string>();
  private standings: ModelStanding[] = [];

  /** Which API each research model is called on, for this process (shared with its model adapter). */
  readonly apis: ModelApis;

  constructor(
    readonly watched: WatchedModel[],
    private readonly options: {
      now?: () => number;
      timeoutMs?: number;
      fetch?: typeof fetch;
      apis?: ModelApis;
    } = {},
  ) {
    this.apis = options.apis ?? new ModelApis('auto');
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** The server's model list, read at most once an hour; an unreachable server throws its sentence. */
  catalog(server: ServerAccess, addressVariable = 'OPENAI_BASE_URL'): Promise<ModelCatalog> {
    const key = `${serverAddress(server)}\n${server.apiKey}`;
    const cached = this.catalogs.get(key);
    if (cached && this.now() - cached.at < CATALOG_CACHE_MS) return cached.catalog;
    const catalog = readModelCatalog(server, {
      timeoutMs: this.options.timeoutMs,
      fetch: this.options.fetch,
      addressVariable,
    });
    this.catalogs.set(key, { at: this.now(), catalog });
    // A server that could not be reached is asked again next time.
    catalog.catch(() => this.catalogs.delete(key));
    return catalog;
  }

  /**
   * Checks the models once and logs each sentence as a warning (start-up of
   * serve, worker and the CLI's research commands); never throws.
   */
  async announce(log: Logger): Promise<ModelStanding[]> {
    const standings = await this.check();
    for (const s of standings) {
      const fields = { variable: s.variable, model: s.model, server: s.server, shutdownDate: s.shutdownDate };
      if (s.problem) log.warn(fields, s.problem);
      if (s.warning) log.warn(fields, s.warning);
    }
    return standings;
  }

  /**
   * Every configured model against its server's list (one read per server);
   * with `probe` (doctor), each research model the server may serve is also
   * sent one small turn, to learn which API it is served on.
   */
  async check(probe?: (w: WatchedModel) => Promise<unknown>): Promise<ModelStanding[]> {
    this.standings = await Promise.all(this.watched.map((w) => this.stand(w, probe)));
    return this.standings;
  }

  private async stand(
    w: WatchedModel,
    probe?: (w: WatchedModel) => Promise<unknown>,
  ): Promise<ModelStanding> {
    const onList = await this.onList(w);
    const { listed, shutdownDate, soon } = onList;
    let problem = onList.problem;
    if (probe && w.apiChosen && !problem)
      problem = await probe(w).then(
        () => undefined,
        (error: Error) => error.message,
      );
    const unpriced = w.priceSource.startsWith('none')
      ? `cost and caps cannot be enforced for ${w.model} (${w.variable}): set MODEL_PRICES (meanwhile reports show "cost n/a" and the caps count it at the dearest known model's price).`
      : undefined;
    const warning = [soon, unpriced].filter(Boolean).join(' ');
    return {
      variable: w.variable,
      model: w.model,
      server: serverAddress(w.server),
      priceSource: w.priceSource,
      listed,
      ...(w.apiChosen ? { api: this.apiOf(w) } : {}),
      ...(shutdownDate ? { shutdownDate } : {}),
      ...(problem ? { problem } : {}),
      ...(warning ? { warning } : {}),
    };
  }

  /** Where a model stands on its server's list: listed or not (null: no list), its shutdown, the sentence it earns. */
  private async onList(
    w: WatchedModel,
  ): Promise<{ listed: boolean | null; shutdownDate?: string; problem?: string; soon?: string }> {
    let catalog: ModelCatalog;
    try {
      catalog = await this.catalog(w.server, w.addressVariable);
    } catch (error) {
      return { listed: null, problem: (error as Error).message };
    }
    const known = KNOWN_SHUTDOWNS[w.model];
    // A server without a list says nothing of a model, unless it is one known to be shut down.
    if (catalog.kind === 'unlisted')
      return { listed: null, shutdownDate: known, problem: known && this.missingSentence(w, catalog) };
    const listed = catalog.models.find((m) => sameModel(m.id, w.model));
    const shutdownDate = listed?.shutdownDate ?? known;
    const days = shutdownDate ? this.daysUntil(shutdownDate) : Number.POSITIVE_INFINITY;
    if (!listed || days <= 0)
      return { listed: Boolean(listed), shutdownDate, problem: this.missingSentence(w, catalog) };
    const soon =
      days <= SHUTDOWN_WARNING_DAYS
        ? `${w.model} (${w.variable}) shuts down on ${shutdownDate}, in ${days} days, at ${serverAddress(w.server)}: set ${w.variable} to a current model before then.`
        : undefined;
    return { listed: true, shutdownDate, soon };
  }

  /**
   * The sentence for a model the server refused (`model_not_found`), kept for
   * /healthz: which variable to change, and to what the server offers.
   */
  async refused(model: string, server: ServerAccess, cause?: unknown): Promise<ConfigError> {
    const w = this.watched.find(
      (m) => m.model === model && serverAddress(m.server) === serverAddress(server),
    ) ?? {
      variable: 'RESEARCH_MODEL',
      model,
      server,
      addressVariable: 'OPENAI_BASE_URL',
      priceSource: '',
    };
    const catalog = await this.catalog(server, w.addressVariable).catch(
      (): ModelCatalog => ({ kind: 'unlisted', reason: 'unreachable' }),
    );
    const sentence = this.missingSentence(w, catalog);
    this.refusals.set(`${serverAddress(server)} ${model}`, sentence);
    return new ConfigError('model_not_found', sentence, { cause });
  }

  private apiOf(w: WatchedModel): string {
    return this.apis.describe(serverAddress(w.server), w.model);
  }

  /**
   * What /healthz shows: the standings' sentences and the refusals since
   * start (degraded while a model is refused), and the API each research model
   * is called on.
   */
  health(): { degraded?: string; problems: string[]; warnings: string[]; apis: Record<string, string> } {
    const refused = [...this.refusals.values()];
    const problems = [
      ...new Set([...refused, ...this.standings.flatMap((s) => (s.problem ? [s.problem] : []))]),
    ];
    const warnings = this.standings.flatMap((s) => (s.warning ? [s.warning] : []));
    const apis = Object.fromEntries(
      this.watched.filter((w) => w.apiChosen).map((w) => [w.model, this.apiOf(w)]),
    );
    return { ...(refused.length ? { degraded: refused[0] } : {}), problems, warnings, apis };
  }

  private missingSentence(w: WatchedModel, catalog: ModelCatalog): string {
    const where = serverAddress(w.server);
    const date =
      KNOWN_SHUTDOWNS[w.model] ??
      (catalog.kind === 'listed' ? listedDate(catalog.models, w.model) : undefined);
    const gone = date && this.daysUntil(date) <= 0 ? ` (it was shut down on ${date})` : '';
    const offered = catalog.kind === 'listed' ? suggestions(catalog.models) : [];
    const to = offered.length ? `a model it offers (${offered.join(', ')})` : 'a model it serves';
    return `The model server at ${where} does not offer ${w.model}${gone}, which ${w.variable} names: set ${w.variable} to ${to}.`;
  }

  private daysUntil(day: string): number {
    return Math.ceil((Date.parse(`${day}T00:00:00Z`) - this.now()) / DAY_MS);
  }
}

/** Ollama lists `name:latest` for a model asked for as `name`. */
function sameModel(listed: string, configured: string): boolean {
  return listed === configured || listed === `${configured}:latest`;
}

function listedDate(models: ListedModel[], model: string): string | undefined {
  return models.find((m) => sameModel(m.id, model))?.shutdownDate;
}

/** Up to six research-capable models the server offers, newest names first, none that is shutting down. */
function suggestions(models: ListedModel[]): string[] {
  const usable = models
    .filter((m) => !m.shutdownDate && !NOT_FOR_RESEARCH.test(m.id) && !/-\d{4}-\d{2}-\d{2}$/.test(m.id))
    .map((m) => m.id)
    .sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
  return usable.length > 6 ? [...usable.slice(0, 6), '…'] : usable;
}
