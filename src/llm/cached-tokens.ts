/**
 * Prompt-cache hits as OpenAI-compatible servers report them: OpenAI, vLLM and
 * OpenRouter in `prompt_tokens_details.cached_tokens`, DeepSeek in
 * `prompt_cache_hit_tokens`, Moonshot in `cached_tokens`; 0 when none does.
 */
export function cachedTokensOf(usage: object): number {
  const u = usage as {
    prompt_tokens_details?: { cached_tokens?: unknown } | null;
    prompt_cache_hit_tokens?: unknown;
    cached_tokens?: unknown;
  };
  const value = u.prompt_tokens_details?.cached_tokens ?? u.prompt_cache_hit_tokens ?? u.cached_tokens;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
