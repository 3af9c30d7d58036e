import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { type EnvOf, optionalText, positiveNumber } from '../ports/env-values.js';
import { ConfigError } from '../ports/errors.js';
import type { McpServerConfig } from '../search/mcp/mcp-tools.js';

export type { McpServerConfig };

/** The MCP servers research may use. */
export const MCP_FIELDS = {
  // As JSON or the path of a JSON file (see parseMcpServers).
  MCP_SERVERS: optionalText,
  MCP_TIMEOUT_SECONDS: positiveNumber.default(30),
};

export function readMcp(e: EnvOf<typeof MCP_FIELDS>): { servers: McpServerConfig[]; timeoutMs: number } {
  return { servers: parseMcpServers(e.MCP_SERVERS), timeoutMs: e.MCP_TIMEOUT_SECONDS * 1000 };
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
