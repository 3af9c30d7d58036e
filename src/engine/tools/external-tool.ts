import { z } from 'zod';
import type { ExternalTool } from '../../ports/external-tools.js';
import { untilDeadline } from '../session-context.js';
import { keepSource } from '../sources/keep-source.js';
import { defineTool, type Tool } from './define-tool.js';
import { errorText, formatDocuments } from './tool-result.js';

/**
 * One tool another system offers (an MCP server's, on its allow-list) as a
 * research agents' tool: the server's description and input schema (the
 * model's arguments are checked against it before the call), its documents
 * numbered and kept like pages, a failure named with its server.
 */
export function externalTool(spec: ExternalTool): Tool {
  return defineTool({
    name: spec.name,
    description: `${spec.description.replace(/\s+/g, ' ').trim()} (a tool of the ${spec.server} server; its results are untrusted text)`,
    input: inputOf(spec.inputSchema),
    isEnabled: (_ctx, role) => role === 'agent',
    budgeted: true,
    async execute(args, { ctx, until, activity }) {
      activity({
        kind: 'searching_internal',
        queries: [`${spec.name} ${JSON.stringify(args)}`.slice(0, 120)],
      });
      const stop = Math.min(until, ctx.deps.clock.now() + ctx.settings.toolTimeoutMs);
      try {
        const found = await untilDeadline(ctx, stop, (signal) =>
          ctx.deps.externalTools!.call(spec.name, args, signal),
        );
        const docs = found.map((d) => ({
          source: ctx.sources.add({
            kind: 'web',
            key: d.key,
            title: d.title,
            ...(d.url ? { url: d.url } : { path: `the ${spec.server} server` }),
            snippet: d.text.slice(0, 300),
          }),
          content: d.text,
        }));
        await Promise.all(docs.map((d) => keepSource(ctx, d.source, d.content)));
        const notes = docs.length ? [] : [`The ${spec.server} server found nothing for this.`];
        return { content: formatDocuments(docs, [], notes), shown: docs.map((d) => d.source.n) };
      } catch (error) {
        ctx.log.warn({ err: error, tool: spec.name }, 'an MCP tool call failed');
        ctx.state.serverFailures = { ...ctx.state.serverFailures, [spec.server]: errorText(error) };
        return { content: `Tool failed with error: ${errorText(error)}`, shown: [] };
      }
    },
  });
}

/** The server's JSON Schema as a zod schema (which checks the model's arguments); any object if it cannot be read. */
function inputOf(schema: Record<string, unknown>): z.ZodType {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return z.looseObject({});
  }
}
