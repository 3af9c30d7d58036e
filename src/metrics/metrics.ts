import type { LlmPurpose, TokenUsage } from '../ports/llm.js';
import type { CitationCheck } from '../ports/report.js';

export type SlackCallOutcome = 'ok' | 'error' | 'rate_limited';
export type ResearchTool = 'web_search' | 'open_url';

/**
 * What the adapters report as it happens, for `/metrics`. Figures read from
 * the database (sessions by status, queue depth) are read at scrape time by
 * the Prometheus adapter instead.
 */
export interface Metrics {
  modelCall(purpose: LlmPurpose, model: string, usage: TokenUsage, costUsd: number | null): void;
  slackCall(method: string, outcome: SlackCallOutcome): void;
  /** A Slack write left the outbox, `seconds` after it was recorded. */
  delivered(op: string, seconds: number): void;
  /** A search or page read that could not be done (not one that found nothing). */
  toolFailed(tool: ResearchTool, reason: string): void;
  /** A report's claim check: how many citations were kept, moved, removed or left unchecked. */
  citationsChecked(check: CitationCheck): void;
}

export const noMetrics: Metrics = {
  modelCall() {},
  slackCall() {},
  delivered() {},
  toolFailed() {},
  citationsChecked() {},
};
