/**
 * Errors grouped by whose fault they are. Expected outcomes (clarification
 * needed, cancelled, a report cut short by a budget) are values, never errors;
 * a person's bad input is answered where it is read, in one sentence.
 */
export type Fault = 'config' | 'model' | 'provider' | 'internal';

export abstract class AppError extends Error {
  abstract readonly fault: Fault;
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The operator must change a setting; the message names it. */
export class ConfigError extends AppError {
  readonly fault = 'config';
}

export function noResearchTools(): ConfigError {
  return new ConfigError(
    'no_research_tools',
    'No search provider is configured and the knowledge base is empty: set SEARCH_PROVIDER and its key, or add documents with "deep-research kb ingest PATH".',
  );
}

/** The model produced something unusable even after recovery. */
export class ModelOutputError extends AppError {
  readonly fault = 'model';
}

/** An upstream service (model server, search provider) failed. */
export class ProviderError extends AppError {
  readonly fault = 'provider';
  constructor(
    code: string,
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown; status?: number; retryAfterMs?: number },
  ) {
    super(code, message, options);
    this.status = options?.status;
    this.retryAfterMs = options?.retryAfterMs;
  }
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
}

/** One plain sentence for a person, whatever was thrown. */
export function describeError(error: unknown): string {
  if (error instanceof AppError) return error.message;
  if (error instanceof Error && error.name === 'AbortError') return 'The operation was cancelled.';
  return 'An unexpected internal error occurred.';
}
