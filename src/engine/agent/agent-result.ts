/** What a research agent hands back: its report, or why it has none. */
export type AgentResult =
  | { ok: true; report: string; sources: number }
  | { ok: false; reason: string; cancelled?: boolean };
