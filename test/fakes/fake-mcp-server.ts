import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** The wiki an in-repo MCP server stands for: documents with ids, titles, addresses and text. */
export const WIKI = [
  {
    id: 'doc-1',
    title: 'Leeds heat pump policy',
    url: 'https://wiki.example.com/doc-1',
    text: 'The Leeds office heat pump policy caps noise at 40 decibels in the meeting rooms.',
  },
  {
    id: 'doc-2',
    title: 'Grant checklist',
    url: 'https://wiki.example.com/doc-2',
    text: 'The grant checklist asks for two installer quotes before March.',
  },
];

/**
 * An MCP server built with the SDK's server side, as a team's wiki would
 * offer one: `search` (results with id, title, url and a snippet, as JSON
 * text), `fetch` (one document) and `delete_page`, which no allow-list
 * should ever let research see.
 */
export function wikiServer(calls: string[] = []): McpServer {
  const server = new McpServer({ name: 'wiki', version: '1.0.0' });
  server.registerTool(
    'search',
    { description: 'Search the wiki for pages.', inputSchema: { query: z.string().min(1) } },
    async ({ query }) => {
      calls.push(`search:${query}`);
      const words = query.toLowerCase().split(/\W+/).filter(Boolean);
      const results = WIKI.filter((d) => words.some((w) => d.text.toLowerCase().includes(w)));
      return { content: [{ type: 'text', text: JSON.stringify({ results }) }] };
    },
  );
  server.registerTool(
    'fetch',
    { description: 'Fetch one wiki page by id.', inputSchema: { id: z.string() } },
    async ({ id }) => {
      calls.push(`fetch:${id}`);
      const doc = WIKI.find((d) => d.id === id);
      return doc
        ? { content: [{ type: 'text', text: JSON.stringify(doc) }] }
        : { content: [{ type: 'text', text: `No page ${id}` }], isError: true };
    },
  );
  server.registerTool(
    'delete_page',
    { description: 'Delete a page.', inputSchema: { id: z.string() } },
    async () => {
      calls.push('delete_page');
      return { content: [{ type: 'text', text: 'deleted' }] };
    },
  );
  return server;
}

/**
 * The wiki over streamable HTTP (stateless: a server and transport per
 * request). `stopOnCall`: the server goes away at the first tool call, as
 * one that stops mid-session.
 */
export async function wikiOverHttp(options: { stopOnCall?: boolean } = {}) {
  const calls: string[] = [];
  const http: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    if (options.stopOnCall && body?.method === 'tools/call') {
      req.socket.destroy();
      http.close();
      return;
    }
    const server = wikiServer(calls);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
