import type { Readable } from 'node:stream';
import type { Output } from './terminal-view.js';

/** A command's streams: the terminal, or a test's. */
export interface Io {
  stdin: Readable;
  stdout: Output;
  stderr: Output;
  /** Aborts on Ctrl-C. */
  signal: AbortSignal;
  /** NO_COLOR or --no-color: no styling and no cursor movement, even in a terminal. */
  plain?: boolean;
}
