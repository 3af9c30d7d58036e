import { describe, expect, it } from 'vitest';

import { redactSecrets, secretsOf } from '../src/redact-secrets.js';

describe('redactSecrets', () => {
  it('blanks known values and credential shapes in provider error text', () => {
    const body =
      '401 {"error":{"message":"Incorrect API key provided: sk-proj-abcdefghijklmnop1234. Token xoxb-1-2-abcdefgh, api_key=tvly-secretvalue9"}}';
    const out = redactSecrets(`${body} and my-own-key-42`, ['my-own-key-42']);
    expect(out).not.toMatch(/abcdefghijklmnop1234|xoxb-1-2|secretvalue9|my-own-key-42/);
    expect(out).toContain('Incorrect API key provided: [redacted]');
    expect(out).toContain('api_key=[redacted]');
  });

  it('finds the secrets of an environment, including the database password only', () => {
    const secrets = secretsOf({
      OPENAI_API_KEY: 'sk-live-123456',
      DATABASE_URL: 'postgres://app:p%40ss-word@db:5432/x',
      RESEARCH_MODEL: 'gpt-5.1',
    });
    expect(secrets.sort()).toEqual(['p@ss-word', 'sk-live-123456']);
    expect(secretsOf({ DATABASE_URL: 'postgres://app@db/x?password=in-the-query' })).toEqual([
      'in-the-query',
    ]);
  });
});
