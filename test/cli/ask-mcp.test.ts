import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main.js';
import { wikiOverHttp } from '../fakes/fake-mcp-server.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { type CliEnvironment, cliEnvironment } from '../helpers/cli-env.js';
import { io } from '../helpers/io.js';

const STDIO = join(import.meta.dirname, '../fixtures/mcp-stdio-server.ts');

let cli: CliEnvironment;
beforeAll(async () => {
  cli = await cliEnvironment(
    new RuleLlm({ rounds: 1, externalCall: ['wiki__search', { query: 'decibels noise' }] }),
  );
});
afterAll(async () => cli.close());

const offeredTools = (cli: CliEnvironment) =>
  new Set(cli.model.requests.flatMap((r) => (r.tools ?? []).map((t) => t.function.name)));

describe('research with MCP servers', () => {
  it('offers the allowed tools to agents and cites what they return (streamable HTTP)', async () => {
    const wiki = await wikiOverHttp();
    try {
      const servers = { wiki: { url: wiki.url, tools: ['search'] } };
      const env = { ...cli.env, MCP_SERVERS: JSON.stringify(servers) };
      const streams = io();
      expect(
        await runCli(['ask', '--no-clarify', '--yes', 'How loud may the heat pump be?'], env, streams),
      ).toBe(0);
      expect(streams.out.text).toContain('Finding from Leeds heat pump policy [1].');
      expect(streams.out.text).toContain(
        '1. [Leeds heat pump policy](https://wiki.example.com/doc-1), wiki.example.com',
      );
      expect(wiki.calls).toEqual(['search:decibels noise']);
      const offered = offeredTools(cli);
      expect(offered.has('wiki__search')).toBe(true);
      // Not on the allow-list: never offered.
      expect(offered.has('wiki__fetch')).toBe(false);
      expect(offered.has('wiki__delete_page')).toBe(false);
    } finally {
      await wiki.close();
    }
  }, 60_000);

  it('runs a stdio server, and names a server that stops mid-session in the report', async () => {
    const wiki = await wikiOverHttp({ stopOnCall: true });
    const servers = {
      wiki: { url: wiki.url, tools: ['search'] },
      notes: { command: process.execPath, args: ['--import', 'tsx', STDIO], tools: ['fetch'] },
    };
    const env = { ...cli.env, MCP_SERVERS: JSON.stringify(servers) };
    const streams = io();
    expect(await runCli(['ask', '--no-clarify', '--yes', 'How loud may it be?'], env, streams)).toBe(0);
    expect(offeredTools(cli).has('notes__fetch')).toBe(true);
    expect(streams.out.text).toMatch(
      /> \*\*Partial report:\*\* some sources could not be searched: the wiki server could not be reached \(/,
    );
    await wiki.close();
  }, 60_000);

  it('lists the servers, their allowed tools and whether they answer', async () => {
    const wiki = await wikiOverHttp();
    try {
      const servers = {
        wiki: { url: wiki.url, tools: ['search', 'fetch'] },
        down: { url: 'http://127.0.0.1:9/mcp', tools: ['search'] },
      };
      const streams = io();
      expect(
        await runCli(['mcp', 'list'], { ...cli.env, MCP_SERVERS: JSON.stringify(servers) }, streams),
      ).toBe(1);
      const lines = streams.out.text.trim().split('\n');
      expect(lines[0]).toBe(`wiki  answers  wiki__search, wiki__fetch  ${wiki.url}`);
      expect(lines[1]).toMatch(/^down {2}does not answer \(.+\) {2}http:\/\/127\.0\.0\.1:9\/mcp$/);
    } finally {
      await wiki.close();
    }
  });

  it('says in one line what is wrong with MCP_SERVERS', async () => {
    const streams = io();
    const env = { ...cli.env, MCP_SERVERS: '{"wiki":{"url":"https://wiki.example.com/mcp"}}' };
    expect(await runCli(['ask', '--no-clarify', '--yes', 'q?'], env, streams)).toBe(1);
    expect(streams.err.text).toBe(
      'error: MCP_SERVERS is invalid: wiki.tools: Invalid input: expected array, received undefined; set it to JSON like {"wiki":{"url":"https://wiki.example.com/mcp","tools":["search","fetch"]}}, or to the path of a file holding it.\n',
    );
  });
});
