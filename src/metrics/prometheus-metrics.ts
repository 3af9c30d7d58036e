import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Logger } from '../ports/logger.js';
import { within } from '../within.js';
import type { Metrics } from './metrics.js';

/** A scrape waits this long for each database figure (Prometheus's own scrape timeout defaults to 10 s). */
const SCRAPE_READ_MS = 2000;

/** What only the database knows, read when Prometheus scrapes. */
export interface ScrapeSources {
  sessionsByStatus(): Promise<Record<string, number>>;
  queueDepth(): Promise<number>;
  outboxPending(): Promise<number>;
  /** Sessions this process is running now. */
  active(): number;
}

/**
 * The process's metrics in Prometheus text format, on its own registry (no
 * global state, so tests and several services in one process stay apart).
 * A database that cannot be read at scrape time leaves its series out and
 * sets `deep_research_database_up` to 0; the scrape itself still answers.
 */
export function prometheusMetrics(logger: Logger) {
  const registry = new Registry();
  // The database and the worker exist only once the process has started; until then those series are absent.
  let sources: ScrapeSources | undefined;
  const prefix = 'deep_research_';
  let databaseUp = 1;
  const reported = new Set<string>();
  const readOrSkip = async <T>(read: () => Promise<T>, set: (value: T) => void) => {
    try {
      set(await within(read(), SCRAPE_READ_MS));
    } catch (error) {
      databaseUp = 0;
      const message = error instanceof Error ? error.message : String(error);
      // One line per distinct failure while it lasts, not one per scrape.
      if (!reported.has(message)) logger.warn({ err: error }, 'metrics: the database could not be read');
      reported.add(message);
    }
  };

  const sessions = new Gauge({
    name: `${prefix}sessions`,
    help: 'Sessions in the database by status.',
    labelNames: ['status'],
    registers: [registry],
  });
  const queueDepth = new Gauge({
    name: `${prefix}queue_depth`,
    help: 'Sessions due to run that no worker has claimed yet.',
    registers: [registry],
  });
  const outboxPending = new Gauge({
    name: `${prefix}slack_outbox_pending`,
    help: 'Slack writes recorded and not yet delivered (all processes).',
    registers: [registry],
  });
  const active = new Gauge({
    name: `${prefix}active_sessions`,
    help: 'Sessions this process is running now.',
    registers: [registry],
  });
  const database = new Gauge({
    name: `${prefix}database_up`,
    help: '1 when this scrape could read the database, else 0.',
    registers: [registry],
  });
  /** The figures only the database has, read once per scrape (prom-client collects metrics in parallel). */
  async function refresh() {
    databaseUp = 1;
    sessions.reset();
    // Unknown, not 0: an unlabelled gauge always has a value, and NaN leaves a gap on a graph.
    queueDepth.set(Number.NaN);
    outboxPending.set(Number.NaN);
    if (!sources) return;
    await readOrSkip(sources.sessionsByStatus, (counts) => {
      for (const [status, n] of Object.entries(counts)) sessions.set({ status }, n);
    });
    await readOrSkip(sources.queueDepth, (n) => queueDepth.set(n));
    await readOrSkip(sources.outboxPending, (n) => outboxPending.set(n));
    active.set(sources.active());
    database.set(databaseUp);
    if (databaseUp) reported.clear();
  }
  const tokens = new Counter({
    name: `${prefix}model_tokens_total`,
    help: 'Model tokens by phase, model and kind (input, cached_input, output).',
    labelNames: ['phase', 'model', 'kind'],
    registers: [registry],
  });
  const cost = new Counter({
    name: `${prefix}model_cost_usd_total`,
    help: 'Estimated model cost in USD by phase and model (models without a price are not counted).',
    labelNames: ['phase', 'model'],
    registers: [registry],
  });
  const modelCalls = new Counter({
    name: `${prefix}model_calls_total`,
    help: 'Model calls answered, by phase and model.',
    labelNames: ['phase', 'model'],
    registers: [registry],
  });
  const slackCalls = new Counter({
    name: `${prefix}slack_api_calls_total`,
    help: 'Slack Web API calls by method and outcome (ok, error, rate_limited: a 429).',
    labelNames: ['method', 'outcome'],
    registers: [registry],
  });
  const lag = new Histogram({
    name: `${prefix}slack_delivery_lag_seconds`,
    help: 'From a Slack write being recorded to Slack accepting it, by operation.',
    labelNames: ['op'],
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 3600],
    registers: [registry],
  });
  const toolFailures = new Counter({
    name: `${prefix}tool_failures_total`,
    help: 'Web searches and page reads that could not be done, by tool and reason.',
    labelNames: ['tool', 'reason'],
    registers: [registry],
  });
  const citations = new Counter({
    name: `${prefix}citations_total`,
    help: "Report citations by the claim check's verdict (supported, moved, removed, unchecked).",
    labelNames: ['verdict'],
    registers: [registry],
  });

  const metrics: Metrics = {
    modelCall(purpose, model, usage, usd) {
      const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
      tokens.inc({ phase: purpose, model, kind: 'input' }, usage.inputTokens - cached);
      tokens.inc({ phase: purpose, model, kind: 'cached_input' }, cached);
      tokens.inc({ phase: purpose, model, kind: 'output' }, usage.outputTokens);
      modelCalls.inc({ phase: purpose, model });
      if (usd !== null) cost.inc({ phase: purpose, model }, usd);
    },
    slackCall(method, outcome) {
      slackCalls.inc({ method, outcome });
    },
    delivered(op, seconds) {
      lag.observe({ op }, Math.max(0, seconds));
    },
    citationsChecked(check) {
      citations.inc({ verdict: 'supported' }, check.checked - check.moved - check.removed);
      citations.inc({ verdict: 'moved' }, check.moved);
      citations.inc({ verdict: 'removed' }, check.removed);
      citations.inc({ verdict: 'unchecked' }, check.citations - check.checked);
    },
    toolFailed(tool, reason) {
      toolFailures.inc({ tool, reason });
    },
  };
  return {
    ...metrics,
    contentType: registry.contentType,
    scrapeFrom(from: ScrapeSources) {
      sources = from;
    },
    async render(): Promise<string> {
      await refresh();
      return registry.metrics();
    },
  };
}

export type PrometheusMetrics = ReturnType<typeof prometheusMetrics>;
