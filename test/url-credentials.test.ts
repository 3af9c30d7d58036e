import { describe, expect, it } from 'vitest';
import { ModelLifecycle } from '../src/llm/model-lifecycle.js';
import { createLogger } from '../src/logger.js';
import { runCli } from '../src/main.js';
import { redactSecrets, secretsOf, urlWithoutSecrets } from '../src/redact-secrets.js';
import { io } from './helpers/io.js';

const PASSWORD = 'hunter2-Pa55word';
const TOKEN = 'tok_0123456789abcdefABCDEF';
/** Every URL setting, each with credentials in it (a password, a token as the user, a secret query parameter). */
const URLS = {
  OPENAI_BASE_URL: `http://research:${PASSWORD}@127.0.0.1:59999/v1`,
  DEEP_RESEARCH_BASE_URL: `http://${TOKEN}@127.0.0.1:59999/v1`,
  GEMINI_BASE_URL: `http://127.0.0.1:59999/?key=${TOKEN}x`,
  SEARXNG_URL: `http://search:${PASSWORD}s@127.0.0.1:59999/`,
  SLACK_API_URL: `http://slack:${PASSWORD}k@127.0.0.1:59999/api/`,
  DATABASE_URL: `postgres://app:${PASSWORD}d@127.0.0.1:59999/research`,
};
const SECRETS = [PASSWORD, TOKEN];

function expectNoSecret(output: string): void {
  for (const secret of SECRETS) expect(output).not.toContain(secret);
}

describe('credentials in URL settings', () => {
  it('are never shown: one masking function for a URL, and the logger blanks them wherever they turn up', async () => {
    for (const url of Object.values(URLS)) expectNoSecret(urlWithoutSecrets(url));
    expect(urlWithoutSecrets(URLS.OPENAI_BASE_URL)).toBe('http://research:***@127.0.0.1:59999/v1');
    expect(urlWithoutSecrets(URLS.DEEP_RESEARCH_BASE_URL)).toBe('http://***@127.0.0.1:59999/v1');
    // An error that quotes the address whole (fetch refuses URLs with credentials, naming them).
    const quoted = `Request cannot be constructed from a URL that includes credentials: ${URLS.SEARXNG_URL}search`;
    expectNoSecret(redactSecrets(quoted));

    const lines: string[] = [];
    const logger = createLogger('info', secretsOf({ ...URLS, RESEARCH_MODEL: 'gpt-5.5' }), {
      write: (line: string) => void lines.push(line),
    });
    for (const [name, url] of Object.entries(URLS))
      logger.error({ err: new Error(`could not reach ${url}`) }, name);
    await new Promise((r) => setTimeout(r, 50));
    expect(lines.length).toBeGreaterThan(0);
    expectNoSecret(lines.join('\n'));
  });

  it('are not in /healthz’s model standing, doctor, or where', async () => {
    const server = { apiKey: 'sk-test-123456', baseURL: URLS.OPENAI_BASE_URL };
    const models = new ModelLifecycle([
      {
        variable: 'RESEARCH_MODEL',
        model: 'gpt-5.5',
        priceSource: 'none',
        server,
        addressVariable: 'OPENAI_BASE_URL',
      },
    ]);
    await models.check().catch(() => {});
    expectNoSecret(JSON.stringify(models.health()));

    const env = { ...URLS, OPENAI_API_KEY: 'sk-test-123456', RESEARCH_BACKEND: 'deep-research-api' };
    const doctor = io();
    await runCli(['doctor'], env, doctor);
    expect(`${doctor.out.text}${doctor.err.text}`).toContain('127.0.0.1:59999');
    expectNoSecret(`${doctor.out.text}${doctor.err.text}`);
    const json = io();
    await runCli(['doctor', '--json'], env, json);
    expectNoSecret(`${json.out.text}${json.err.text}`);
    const where = io();
    await runCli(['where'], env, where);
    expect(where.out.text).toBe(`Postgres at postgres://app:***@127.0.0.1:59999/research\n`);
  });
});
