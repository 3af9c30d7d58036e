import { createRequire } from 'node:module';

// Page text may contain "<|endoftext|>"; by default the tokenizer throws on it. Count it as plain text.
const PLAIN = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() };

type Count = (text: string, options: typeof PLAIN) => number;
let count: Count | undefined;

/** Tokens in `text` under o200k_base, close enough for budgets across OpenAI-compatible models. */
export function countTokens(text: string): number {
  // Its encoding takes 0.1 s to load: on first use (a research step), not at every command's start.
  count ??= (createRequire(import.meta.url)('gpt-tokenizer') as { countTokens: Count }).countTokens;
  return count(text, PLAIN);
}
