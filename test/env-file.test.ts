import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../src/config/load-config.js';
import { withEnvFile } from '../src/env-file.js';

describe('.env', () => {
  it('adds its variables under the real environment, which wins (an empty real variable counts as unset)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'env-'));
    writeFileSync(
      join(dir, '.env'),
      '# comment\nOPENAI_API_KEY=sk-from-file\nPORT=4000\nSUGGESTED_PROMPTS="A? | B?"\nLOG_LEVEL=debug\n',
    );
    expect(withEnvFile({ PORT: '5000', LOG_LEVEL: '', PATH: '/bin' }, dir)).toEqual({
      OPENAI_API_KEY: 'sk-from-file',
      PORT: '5000',
      SUGGESTED_PROMPTS: 'A? | B?',
      LOG_LEVEL: 'debug',
      PATH: '/bin',
    });
  });

  it('changes nothing without a file', () => {
    const env = { PORT: '5000' };
    expect(withEnvFile(env, mkdtempSync(join(tmpdir(), 'env-')))).toBe(env);
  });

  it('.env.example names every variable the configuration reads, and no other', () => {
    const example = readFileSync(join(import.meta.dirname, '../.env.example'), 'utf8');
    const named = [...example.matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect([...new Set(named)].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });
});
