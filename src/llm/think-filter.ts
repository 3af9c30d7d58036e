const OPEN = '<think>';
const CLOSE = '</think>';

/**
 * Drops a leading `<think>…</think>` block from streamed text: reasoning
 * models served without a reasoning parser (Ollama's older builds, vLLM
 * without `--reasoning-parser`, LM Studio's default) write their thinking
 * into the answer itself. Only a block at the very start counts, so a report
 * that mentions the tag is left alone.
 */
export function thinkFilter() {
  let state: 'start' | 'thinking' | 'after' | 'answer' = 'start';
  let pending = '';
  let seen = false;
  return {
    push(delta: string): string {
      if (state === 'answer') return delta;
      if (state === 'after') {
        // The answer's leading blank lines after the block are the block's, not the answer's.
        const out = delta.trimStart();
        if (out) state = 'answer';
        return out;
      }
      pending += delta;
      if (state === 'start') {
        const head = pending.trimStart();
        if (head.length < OPEN.length && OPEN.startsWith(head)) return '';
        if (!head.startsWith(OPEN)) {
          state = 'answer';
          const out = pending;
          pending = '';
          return out;
        }
        state = 'thinking';
        seen = true;
        pending = head.slice(OPEN.length);
      }
      const close = pending.indexOf(CLOSE);
      if (close < 0) {
        // Keep only what could be the start of the closing tag.
        pending = pending.slice(-(CLOSE.length - 1));
        return '';
      }
      const out = pending.slice(close + CLOSE.length).trimStart();
      state = out ? 'answer' : 'after';
      pending = '';
      return out;
    },
    /** What is still held back when the stream ends (an unclosed think block is dropped). */
    end(): string {
      const out = state === 'start' ? pending : '';
      pending = '';
      return out;
    },
    seen: () => seen,
  };
}
