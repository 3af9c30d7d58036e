import OpenAI from 'openai';

/**
 * The server does not serve this model: OpenAI's `404 model_not_found`
 * ("The model `…` does not exist or you do not have access to it."), or a
 * 404 that says so in words (Ollama: `model "…" not found`).
 */
export function isModelNotFound(error: unknown): boolean {
  if (!(error instanceof OpenAI.APIError)) return false;
  if (error.code === 'model_not_found') return true;
  return (
    error.status === 404 &&
    /model/i.test(error.message) &&
    /not (exist|found)|does not exist/i.test(error.message)
  );
}

/** Turns a refused model into the sentence that names the variable to change (see ModelLifecycle.refused). */
export type RefusedModel = (model: string, cause: unknown) => Promise<Error>;
