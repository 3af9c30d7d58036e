import type { Logger } from '../ports/logger.js';
import type { Queryable } from '../store/database.js';
import { questionSimilarity, sameQuestion } from './question-match.js';
import { type ReportMatch, searchReports } from './records/report-search.js';
import { type CanRead, mayRead } from './report-visibility.js';

/** How many candidates are looked at for each match shown (the rest may be hidden from the viewer). */
const CANDIDATES_PER_MATCH = 5;
/** Pages past this are not turned to (a page value is whatever a click carried: `1e300` is the first page). */
const MAX_PAGE = 200;

/**
 * The team's finished reports, found by words, as one person may see them
 * (the visibility policy's `mayRead`). Shared by every surface that lists
 * reports (`/research find`, App Home, reuse offers).
 */
export class ReportLibrary {
  constructor(private readonly deps: { db: Queryable; log: Logger }) {}

  async find(
    words: string,
    viewer: { userId: string; teamId: string },
    canRead: CanRead,
    limit = 5,
  ): Promise<ReportMatch[]> {
    return (await this.page(words, viewer, canRead, 0, limit)).reports;
  }

  /** One page of what `find` lists (no words: the latest reports), and whether another page follows. */
  async page(
    words: string,
    viewer: { userId: string; teamId: string },
    canRead: CanRead,
    page: number,
    size: number,
  ): Promise<{ reports: ReportMatch[]; more: boolean }> {
    if (!Number.isSafeInteger(page) || page < 0 || page > MAX_PAGE) page = 0;
    const wanted = (page + 1) * size + 1;
    const candidates = await searchReports(this.deps.db, words, {
      teamId: viewer.teamId,
      limit: wanted * CANDIDATES_PER_MATCH,
    });
    const visible: ReportMatch[] = [];
    for (const report of candidates) {
      if (visible.length >= wanted) break;
      if (await mayRead(report, viewer, canRead, this.deps.log)) visible.push(report);
    }
    return {
      reports: visible.slice(page * size, (page + 1) * size),
      more: visible.length > (page + 1) * size,
    };
  }

  /**
   * An earlier report that asked what `question` asks (see questionSimilarity),
   * from the last `sinceDays`, that the person may see; the closest, or null.
   */
  async closest(
    question: string,
    viewer: { userId: string; teamId: string },
    canRead: CanRead,
    sinceDays: number,
  ): Promise<(ReportMatch & { similarity: number }) | null> {
    const candidates = await searchReports(this.deps.db, question, {
      teamId: viewer.teamId,
      limit: 20,
      sinceDays,
      anyWord: true,
    });
    const ranked = candidates
      .map((report) => ({ ...report, similarity: questionSimilarity(question, report.question) }))
      .filter((r) => sameQuestion(question, r.question))
      .sort((a, b) => b.similarity - a.similarity || b.createdAt.getTime() - a.createdAt.getTime());
    for (const report of ranked) if (await mayRead(report, viewer, canRead, this.deps.log)) return report;
    return null;
  }

  /** Every matching report, Slack's and the terminal's: for the terminal, whose user can read the database anyway. */
  all(words: string, limit = 10): Promise<ReportMatch[]> {
    return searchReports(this.deps.db, words, { limit });
  }
}
