import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main.js';
import { fakeOpenAiServer } from '../fakes/fake-openai-server.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { io } from '../helpers/io.js';
import { realPostgres } from '../helpers/postgres.js';

const HANDBOOK = `# Office heating policy

The heating runs on weekdays from 7:00 to 19:00.

## Night setback

Outside office hours the thermostat setback lowers the temperature to 16 °C.
`;

describe('deep-research kb and ask with the knowledge base only (SEARCH_PROVIDER=none)', () => {
  let dir: string;
  let env: Record<string, string>;
  let model: Awaited<ReturnType<typeof fakeOpenAiServer>>;
  const run = async (...argv: string[]) => {
    const streams = io();
    const code = await runCli(argv, env, streams);
    return { code, out: streams.out.text, err: streams.err.text };
  };

  beforeAll(async () => {
    const db = await realPostgres();
    await db.close();
    model = await fakeOpenAiServer(new RuleLlm({ rounds: 1, internalQuery: 'night setback temperature' }));
    dir = mkdtempSync(join(tmpdir(), 'kb-cli-'));
    mkdirSync(join(dir, 'policies'));
    writeFileSync(join(dir, 'policies/heating.md'), HANDBOOK);
    writeFileSync(join(dir, 'policies/scan.pdf'), '%PDF-1.4 not really a pdf');
    env = {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: model.baseUrl,
      RESEARCH_MODEL: 'gpt-4.1',
      SEARCH_PROVIDER: 'none',
      DATABASE_URL: db.url,
      LOG_LEVEL: 'silent',
    };
  });
  afterAll(async () => {
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses to research with nothing to search, in one line', async () => {
    expect(await run('ask', '--no-clarify', 'What is the night temperature?')).toEqual({
      code: 1,
      out: '',
      err: 'error: No search provider is configured and the knowledge base is empty: set SEARCH_PROVIDER and its key, or add documents with "deep-research kb ingest PATH".\n',
    });
    expect(model.requests).toEqual([]);
    expect(await run('kb', 'list')).toMatchObject({
      code: 0,
      out: 'The knowledge base is empty. Add documents with: deep-research kb ingest PATH...\n',
    });
  });

  it('ingests a folder, reporting each file, and says which could not be read', async () => {
    const result = await run('kb', 'ingest', dir);
    expect(result.code).toBe(1);
    expect(result.out).toContain(`added      ${join(dir, 'policies/heating.md')} (2 passages)`);
    expect(result.out).toMatch(new RegExp(`failed {5}${join(dir, 'policies/scan.pdf')}: .+`));
    expect(result.out).toContain('1 added, 1 failed. The knowledge base holds 1 document.');
    expect((await run('kb', 'ingest', join(dir, 'policies/heating.md'))).out).toContain('unchanged');
    expect((await run('kb', 'list')).out).toMatch(
      / {2}2 passages {2}markdown {2}.*heating\.md {2}Office heating policy\n1 document\.\n$/,
    );
  });

  it('answers a question from the ingested documents, citing them by title and path', async () => {
    const result = await run('ask', '--no-clarify', 'What temperature does the office drop to at night?');
    expect(result.err).not.toMatch(/^(error|\{)/m);
    expect(result.code).toBe(0);
    expect(result.out).toContain('Finding from Office heating policy [1].');
    expect(result.out).toContain(join(dir, 'policies/heating.md'));
    const agentTools = model.requests
      .filter((r) => r.tools?.some((t) => t.function.name === 'internal_search'))
      .map((r) => r.tools!.map((t) => t.function.name).sort());
    expect(agentTools.length).toBeGreaterThan(0);
    // No web search provider: agents are offered the knowledge base and page reading only.
    expect(agentTools[0]).toEqual(['generate_report', 'internal_search', 'open_url', 'think_tool']);
  });

  it('removes a folder and says when nothing was ingested there', async () => {
    expect(await run('kb', 'remove', join(dir, 'policies'))).toMatchObject({
      code: 0,
      out: `removed    ${join(dir, 'policies/heating.md')}\n`,
    });
    expect(await run('kb', 'remove', join(dir, 'policies'))).toMatchObject({
      code: 1,
      err: `error: nothing ingested at ${join(dir, 'policies')}; see deep-research kb list.\n`,
    });
  });
});
