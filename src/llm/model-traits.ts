/**
 * Whether a model reasons natively, judged from its name: OpenAI's o-series
 * and gpt-5 family (except the chat variants). Configurable, because
 * OpenAI-compatible servers name models freely.
 */
export function isReasoningModelName(name: string): boolean {
  const base = name.toLowerCase().split('/').pop() ?? '';
  if (/^o\d/.test(base)) return true;
  if (/^gpt-5/.test(base)) return !base.includes('chat');
  return /(^|[-_])(r1|reasoner|thinking)([-_]|$)/.test(base);
}
