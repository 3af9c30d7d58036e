import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/ports/errors.js';
import { silentLogger } from '../../../src/ports/logger.js';
import { McpTools } from '../../../src/search/mcp/mcp-tools.js';
import { wikiOverHttp } from '../../fakes/fake-mcp-server.js';

const STDIO = join(import.meta.dirname, '../../fixtures/mcp-stdio-server.ts');
const open: McpTools[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
  await Promise.all(closers.splice(0).map((c) => c()));
});

const signal = () => AbortSignal.timeout(20_000);

describe('MCP servers as research tools', () => {
  it('offers only the allowed tools, namespaced, over streamable HTTP and stdio, and turns results into documents', async () => {
    const http = await wikiOverHttp();
    closers.push(http.close);
    const tools = new McpTools(
      [
        { name: 'wiki', url: http.url, tools: ['search', 'fetch'] },
        { name: 'notes', command: process.execPath, args: ['--import', 'tsx', STDIO], tools: ['search'] },
      ],
      20_000,
      silentLogger,
    );
    open.push(tools);
    const listed = await tools.list();
    expect(listed.map((t) => t.name).sort()).toEqual(['notes__search', 'wiki__fetch', 'wiki__search']);
    expect(listed.find((t) => t.name === 'wiki__search')!.inputSchema).toMatchObject({
      type: 'object',
      properties: { query: { type: 'string' } },
    });
    expect(await tools.call('wiki__search', { query: 'decibels' }, signal())).toEqual([
      {
        key: 'https://wiki.example.com/doc-1',
        title: 'Leeds heat pump policy',
        url: 'https://wiki.example.com/doc-1',
        text: 'The Leeds office heat pump policy caps noise at 40 decibels in the meeting rooms.',
      },
    ]);
    expect((await tools.call('notes__search', { query: 'quotes' }, signal())).map((d) => d.title)).toEqual([
      'Grant checklist',
    ]);
    expect((await tools.call('wiki__fetch', { id: 'doc-2' }, signal()))[0]!.text).toContain(
      'two installer quotes',
    );
    // A tool not on the allow-list cannot be called, even by name.
    await expect(tools.call('wiki__delete_page', { id: 'doc-1' }, signal())).rejects.toThrow(
      'there is no tool',
    );
    expect(http.calls).not.toContain('delete_page');
  }, 60_000);

  it('names the server that stopped, and leaves out one that does not answer', async () => {
    const http = await wikiOverHttp({ stopOnCall: true });
    closers.push(http.close);
    const tools = new McpTools(
      [
        { name: 'wiki', url: http.url, tools: ['search'] },
        { name: 'down', url: 'http://127.0.0.1:9/mcp', tools: ['search'] },
      ],
      5_000,
      silentLogger,
    );
    open.push(tools);
    expect((await tools.list()).map((t) => t.name)).toEqual(['wiki__search']);
    const failed = await tools.call('wiki__search', { query: 'noise' }, signal()).catch((e) => e);
    expect(failed).toBeInstanceOf(ProviderError);
    expect((failed as Error).message).toMatch(/^the wiki server could not be reached \(/);
  }, 60_000);

  it('asks a server that does not answer at most once a minute, however many sessions start', async () => {
    let requests = 0;
    const broken = createServer((_req, res) => {
      requests += 1;
      res.writeHead(500).end('down');
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => broken.close(() => resolve())));
    const url = `http://127.0.0.1:${(broken.address() as AddressInfo).port}/mcp`;
    const tools = new McpTools([{ name: 'wiki', url, tools: ['search'] }], 5_000, silentLogger);
    open.push(tools);
    expect(await tools.list()).toEqual([]);
    const asked = requests;
    expect(asked).toBeGreaterThan(0);
    expect(await Promise.all([tools.list(), tools.list()])).toEqual([[], []]);
    expect(requests).toBe(asked);
  });
});
