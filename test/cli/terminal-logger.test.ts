import { describe, expect, it } from 'vitest';
import { terminalLogger } from '../../src/cli/terminal-logger.js';
import { Capture } from '../helpers/io.js';

describe('terminalLogger', () => {
  it('prints warnings as one plain line, keeps errors and information for --verbose, and never prints a secret', () => {
    const out = new Capture();
    const quiet = terminalLogger(out, { verbose: false, secrets: ['sk-secret'] });
    quiet.info({}, 'started');
    quiet.warn({ code: 'llm_connection', attempt: 2 }, 'model call failed; retrying');
    quiet.error({ err: new Error('boom') }, 'ask failed');
    expect(out.text).toBe('warning: model call failed; retrying (llm_connection)\n');

    const loud = new Capture();
    const verbose = terminalLogger(loud, { verbose: true, secrets: ['sk-secret'] });
    verbose.child({ sessionId: 's' }).info({}, 'started');
    const cause = new Error('HTTP 401 for key sk-secret');
    verbose.error({ err: new Error('The model server rejected the API key', { cause }) }, 'ask failed');
    expect(loud.text).toBe(
      'info: started\nerror: ask failed: The model server rejected the API key ← HTTP 401 for key [redacted]\n',
    );
  });
});
