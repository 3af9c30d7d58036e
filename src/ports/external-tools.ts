/** A tool another system offers research (an MCP server's), namespaced `server__tool`. */
export interface ExternalTool {
  name: string;
  server: string;
  /** What the server says the tool does (untrusted text, shown to the model as such). */
  description: string;
  /** The JSON Schema of its arguments, as the server gives it. */
  inputSchema: Record<string, unknown>;
}

/** A document a tool answered with: citable like a page. */
export interface ExternalDocument {
  /** A URI, else the server and the document's id. */
  key: string;
  title: string;
  url?: string;
  text: string;
}

export interface ExternalTools {
  /** The allowed tools of the servers that answer; a server that does not is left out (and logged). */
  list(): Promise<ExternalTool[]>;
  /** Calls one; a server that is down, slow or answers garbage throws a ProviderError naming it. */
  call(name: string, args: unknown, signal: AbortSignal): Promise<ExternalDocument[]>;
  /** Ends the connections (stdio servers stop). */
  close(): Promise<void>;
}

/** Where each configured server stands, for `deep-research mcp list`. */
export interface ExternalToolsStatus {
  status(): Promise<{ server: string; where: string; tools?: string[]; error?: string }[]>;
  close(): Promise<void>;
}
