import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ProviderError } from '../../ports/errors.js';
import type {
  ExternalDocument,
  ExternalTool,
  ExternalTools,
  ExternalToolsStatus,
} from '../../ports/external-tools.js';
import type { Logger } from '../../ports/logger.js';

/** How long a server's tool list (or its failure to answer) is kept. */
const LIST_TTL_MS = 60_000;
/** Between a server's name and its tool's, in the names research is offered. */
const SEPARATOR = '__';

/** One MCP server research may use: streamable HTTP (`url`, `headers`) or a command (stdio), and its allowed tools. */
export interface McpServerConfig {
  name: string;
  url?: string;
  headers?: Record<string, string>;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  /** The tools research is offered (the allow-list); the server's others never are. */
  tools: string[];
}

/**
 * MCP servers as research tools, through the official TypeScript SDK:
 * streamable HTTP or stdio, connected when first needed and again after a
 * failure. Only the tools on each server's allow-list are offered, named
 * `server__tool`; a call's result becomes documents (the SDK validates the
 * protocol; the arguments were validated against the tool's schema before).
 */
export class McpTools implements ExternalTools, ExternalToolsStatus {
  private readonly clients = new Map<string, Promise<Client>>();
  private readonly listed = new Map<string, { at: number; tools: Promise<ExternalTool[]> }>();

  constructor(
    private readonly servers: McpServerConfig[],
    private readonly timeoutMs: number,
    private readonly log: Logger,
  ) {}

  /**
   * Every session start asks: each server's answer (or its silence) is kept
   * for a minute, so a down or hanging server delays at most one start a
   * minute, not every one.
   */
  async list(): Promise<ExternalTool[]> {
    const now = Date.now();
    const lists = await Promise.all(
      this.servers.map((server) => {
        const kept = this.listed.get(server.name);
        if (kept && now - kept.at < LIST_TTL_MS) return kept.tools;
        // Shared by the sessions starting this minute: one session's cancel must not cut it short.
        const tools = this.serverTools(server).catch((err) => {
          this.log.warn(
            { err, server: server.name },
            'an MCP server did not answer; research goes on without it',
          );
          return [];
        });
        this.listed.set(server.name, { at: now, tools });
        return tools;
      }),
    );
    return lists.flat();
  }

  /** Each server, where it is, and its allowed tools or why it does not answer (`mcp list`). */
  async status(): Promise<{ server: string; where: string; tools?: string[]; error?: string }[]> {
    return Promise.all(
      this.servers.map(async (server) => {
        const where = server.url ?? [server.command, ...(server.args ?? [])].join(' ');
        try {
          const tools = await this.serverTools(server);
          return { server: server.name, where, tools: tools.map((t) => t.name) };
        } catch (err) {
          return { server: server.name, where, error: (err as Error).message };
        }
      }),
    );
  }

  private async serverTools(server: McpServerConfig): Promise<ExternalTool[]> {
    try {
      const client = await this.client(server);
      const { tools } = await client.listTools(undefined, { timeout: this.timeoutMs });
      return tools
        .filter((t) => server.tools.includes(t.name))
        .map((t) => ({
          name: `${server.name}${SEPARATOR}${t.name}`,
          server: server.name,
          description: (t.description ?? t.title ?? t.name).slice(0, 1000),
          inputSchema: t.inputSchema as Record<string, unknown>,
        }));
    } catch (error) {
      this.forget(server.name);
      throw error;
    }
  }

  async call(name: string, args: unknown, signal: AbortSignal): Promise<ExternalDocument[]> {
    const [serverName, tool] = name.split(SEPARATOR, 2) as [string, string | undefined];
    const server = this.servers.find((s) => s.name === serverName);
    if (!server || !tool || !server.tools.includes(tool))
      throw new ProviderError('mcp_unknown_tool', `there is no tool ${name}`, false);
    try {
      const client = await this.client(server);
      const result = await client.callTool(
        { name: tool, arguments: args as Record<string, unknown> },
        undefined,
        { signal, timeout: this.timeoutMs },
      );
      if (result.isError)
        throw new ProviderError(
          'mcp_tool_error',
          `the ${server.name} server answered with an error: ${textOf(result.content as Content[]).slice(0, 300)}`,
          false,
        );
      return documents(server.name, tool, result.content, result.structuredContent);
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      if (signal.aborted) throw error;
      this.forget(server.name);
      throw new ProviderError(
        'mcp_unavailable',
        `the ${server.name} server could not be reached (${(error as Error).message})`,
        true,
        { cause: error },
      );
    }
  }

  /** Closes every connection (stdio servers are stopped). */
  async close(): Promise<void> {
    const clients = [...this.clients.values()];
    this.clients.clear();
    await Promise.allSettled(clients.map(async (c) => (await c).close()));
  }

  private client(server: McpServerConfig): Promise<Client> {
    let client = this.clients.get(server.name);
    if (!client) {
      client = connect(server, this.timeoutMs);
      this.clients.set(server.name, client);
      client.catch(() => this.forget(server.name));
    }
    return client;
  }

  private forget(name: string): void {
    const client = this.clients.get(name);
    this.clients.delete(name);
    client?.then((c) => c.close()).catch(() => {});
  }
}

async function connect(server: McpServerConfig, timeoutMs: number): Promise<Client> {
  // The SDK (with its schema validator) loads when a server is first used, not at every command's start.
  const [{ Client }, { StdioClientTransport }, { StreamableHTTPClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  const client = new Client({ name: 'deep-research', version: '1' });
  const transport = server.url
    ? new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: server.headers ?? {} },
      })
    : new StdioClientTransport({
        command: server.command!,
        args: server.args ?? [],
        ...(server.env ? { env: server.env } : {}),
        stderr: 'ignore',
      });
  await client.connect(transport, { timeout: timeoutMs });
  return client;
}

interface Content {
  type: string;
  text?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
  uri?: string;
  name?: string;
  title?: string;
}

/** A tool's answer as documents: embedded resources, search-style JSON results, or its text as one document. */
function documents(server: string, tool: string, content: unknown, structured: unknown): ExternalDocument[] {
  const items = (Array.isArray(content) ? content : []) as Content[];
  const docs: ExternalDocument[] = [];
  for (const item of items) {
    if (item.type === 'resource' && item.resource?.uri && item.resource.text)
      docs.push({
        key: item.resource.uri,
        title: item.resource.uri,
        ...web(item.resource.uri),
        text: item.resource.text,
      });
  }
  const json = structured ?? parseJson(textOf(items));
  const listed = jsonDocuments(server, json);
  if (listed.length) return [...docs, ...listed];
  const text = textOf(items.filter((i) => i.type === 'text'));
  if (!docs.length && text.trim()) {
    const id = createHash('sha256').update(text).digest('hex').slice(0, 12);
    docs.push({ key: `mcp:${server}:${tool}:${id}`, title: text.trim().split('\n')[0]!.slice(0, 120), text });
  }
  return docs;
}

/** `{results: [{id, title, url, text}]}` (search tools) or `{id, title, url, text}` (fetch tools). */
function jsonDocuments(server: string, json: unknown): ExternalDocument[] {
  const record = json as { results?: unknown } | null;
  const list = Array.isArray(record?.results)
    ? record.results
    : record && typeof record === 'object'
      ? [record]
      : [];
  const docs: ExternalDocument[] = [];
  for (const r of list as {
    id?: unknown;
    title?: unknown;
    url?: unknown;
    text?: unknown;
    snippet?: unknown;
  }[]) {
    const text = typeof r.text === 'string' ? r.text : typeof r.snippet === 'string' ? r.snippet : '';
    const id = typeof r.id === 'string' ? r.id : typeof r.url === 'string' ? r.url : undefined;
    if (!id || !text) continue;
    const url = typeof r.url === 'string' ? r.url : undefined;
    docs.push({
      key: url ?? `mcp:${server}:${id}`,
      title: typeof r.title === 'string' ? r.title : id,
      ...(url ? web(url) : {}),
      text,
    });
  }
  return docs;
}

const web = (uri: string) => (/^https?:\/\//.test(uri) ? { url: uri } : {});
const textOf = (items: Content[]) => items.map((i) => i.text ?? '').join('\n');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
