import type { FinalReport, ReportChanges } from './report.js';

/** A scheduled run's earlier report, which a new run compares itself with. */
export interface EarlierRun {
  sessionId: string;
  finishedAt: Date;
  report: FinalReport;
}

/** Compares a finished run's report with its schedule's earlier one (the engine's claim check judges). */
export interface ReportComparison {
  compare(
    earlier: EarlierRun,
    sessionId: string,
    report: FinalReport,
    signal?: AbortSignal,
  ): Promise<{ changes: ReportChanges; costUsd: number | null }>;
}
