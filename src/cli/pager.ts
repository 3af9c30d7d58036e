import { spawn } from 'node:child_process';
import type { Output } from './terminal-view.js';

/**
 * Shows `text` on a terminal: through `pager` (a shell command, e.g.
 * `less -FRX`) when it is taller than the window, else written directly.
 * A pager that cannot be started (not installed: exit 127) falls back to
 * writing directly, so the report is never lost.
 */
export async function showPaged(text: string, out: Output, pager: string): Promise<void> {
  const lines = text.split('\n').length;
  if (!out.isTTY || lines < (out.rows ?? 24) - 1 || pager.trim() === 'cat') {
    out.write(text);
    return;
  }
  const shown = await new Promise<boolean>((resolve) => {
    const child = spawn(pager, { shell: true, stdio: ['pipe', 'inherit', 'inherit'] });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code !== 127 && code !== 126));
    // Quitting the pager early closes its input: the rest is simply not needed.
    child.stdin.on('error', () => {});
    child.stdin.end(text);
  });
  if (!shown) out.write(text);
}
