import type { ExternalToolsStatus } from '../ports/external-tools.js';
import type { Io } from './io.js';

/** `deep-research mcp list`: each configured server, whether it answers, and its allowed tools; exit 1 if one does not. */
export async function mcpList(tools: ExternalToolsStatus | undefined, io: Io): Promise<number> {
  if (!tools) {
    io.stdout.write('No MCP servers are configured: set MCP_SERVERS (see the README).\n');
    return 0;
  }
  try {
    const servers = await tools.status();
    for (const s of servers) {
      const listed = s.tools?.length ? s.tools.join(', ') : '(none of the allowed tools exist)';
      io.stdout.write(
        s.tools
          ? `${s.server}  answers  ${listed}  ${s.where}\n`
          : `${s.server}  does not answer (${s.error})  ${s.where}\n`,
      );
    }
    return servers.every((s) => s.tools) ? 0 : 1;
  } finally {
    await tools.close();
  }
}
