/** A passage of the team's own documents that matched a query. */
export interface KnowledgeHit {
  documentId: string;
  title: string;
  path: string;
  text: string;
  updatedAt?: string;
}

export interface KnowledgeBase {
  /** Agents are offered `internal_search` only when this is true. */
  hasDocuments(): Promise<boolean>;
  search(query: string, options: { limit: number; signal: AbortSignal }): Promise<KnowledgeHit[]>;
}
