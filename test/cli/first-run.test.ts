import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/main.js';
import { io } from '../helpers/io.js';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the first run from the terminal', () => {
  it('fails at once with one line when the model server is unreachable; --verbose adds the log lines', async () => {
    const port = await closedPort();
    const env = {
      OPENAI_API_KEY: 'sk-first-run-secret',
      OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
      SEARXNG_URL: `http://127.0.0.1:${port}/`,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'first-run-')),
      // Retries would take minutes: failing fast must not depend on them.
      LLM_MAX_RETRIES: '10',
    };
    const streams = io();
    const started = Date.now();
    const code = await runCli(['ask', '--yes', 'What changed in EU AI rules in 2025?'], env, streams);
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(30_000);
    const lines = streams.err.text.trim().split('\n');
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^error: Could not reach the model server at http://127\\.0\\.0\\.1:${port}/v1 \\(ECONNREFUSED\\): start it, or check OPENAI_BASE_URL and your network\\.$`,
      ),
    );
    // Progress lines before it, nothing else: no retries, no log records, no stack traces.
    expect(lines.filter((l) => /^(error|warning|info):|^\{|^\s+at /.test(l))).toEqual([lines.at(-1)]);
    expect(streams.out.text).toBe('');

    // Checked before research: no session was recorded for it.
    const listed = io();
    expect(await runCli(['sessions', 'list'], env, listed)).toBe(0);
    expect(listed.out.text).toBe('No sessions yet. Start one with: deep-research ask "your question"\n');

    const verbose = io();
    expect(await runCli(['ask', '--yes', '--verbose', 'What changed in 2025?'], env, verbose)).toBe(1);
    const said = verbose.err.text;
    expect(said).toMatch(/^error: Could not reach the model server .*ECONNREFUSED/m);
    expect(said).not.toContain('sk-first-run-secret');
    expect(said).not.toMatch(/^\{/m);
  }, 60_000);
});
