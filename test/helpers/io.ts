import { Readable, Writable } from 'node:stream';
import type { Io } from '../../src/cli/io.js';

export class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

/** Terminal streams for a command under test: lines to type in, captured output. */
export function io(
  stdinLines: string[] = [],
  signal = new AbortController().signal,
): Io & { out: Capture; err: Capture } {
  const out = new Capture();
  const err = new Capture();
  return { stdin: Readable.from(stdinLines), stdout: out, stderr: err, signal, out, err };
}
