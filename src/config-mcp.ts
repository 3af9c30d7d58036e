import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from './ports/errors.js';

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

const server = z
  .object({
    url: z.url({ protocol: /^https?$/ }).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    tools: z.array(z.string().min(1)).min(1, 'list the tools research may use'),
  })
  .strict()
  .refine((s) => Boolean(s.url) !== Boolean(s.command), 'give either url or command');
const servers = z.record(
  z.string().regex(/^[a-z][a-z0-9-]{0,30}$/, 'a server name is lowercase letters, digits and -'),
  server,
);

const EXAMPLE = '{"wiki":{"url":"https://wiki.example.com/mcp","tools":["search","fetch"]}}';

/** MCP_SERVERS: JSON, or the path of a file that holds it. */
export function parseMcpServers(value: string | undefined): McpServerConfig[] {
  if (!value?.trim()) return [];
  const invalid = (why: string) =>
    new ConfigError(
      'invalid_env',
      `MCP_SERVERS is invalid: ${why}; set it to JSON like ${EXAMPLE}, or to the path of a file holding it.`,
    );
  let text = value.trim();
  if (!text.startsWith('{')) {
    try {
      text = readFileSync(text, 'utf8');
    } catch (error) {
      throw invalid(
        `the file ${value.trim()} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalid('it is not valid JSON');
  }
  const parsed = servers.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid(`${issue.path.join('.') || 'the servers'}: ${issue.message}`);
  }
  return Object.entries(parsed.data).map(([name, s]) => ({ name, ...s }));
}
