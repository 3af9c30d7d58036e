import { countTokens as count } from 'gpt-tokenizer';

// Page text may contain "<|endoftext|>"; by default the tokenizer throws on it. Count it as plain text.
const PLAIN = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() };

/** Tokens in `text` under o200k_base, close enough for budgets across OpenAI-compatible models. */
export function countTokens(text: string): number {
  return count(text, PLAIN);
}
