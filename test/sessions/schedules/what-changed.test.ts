import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/ports/errors.js';
import { silentLogger } from '../../../src/ports/logger.js';
import type { FinalReport } from '../../../src/ports/report.js';
import type { ReportComparison } from '../../../src/ports/report-changes.js';
import type { SessionRow } from '../../../src/sessions/records/session-row.js';
import { whatChanged } from '../../../src/sessions/schedules/what-changed.js';

const REPORT: FinalReport = {
  markdown: '## Report\n\nTides follow the Moon [1].',
  sources: [
    { n: 1, kind: 'web', key: 'https://a.example', url: 'https://a.example', title: 'Tides', snippet: '' },
  ],
  partial: null,
  durationMs: 1,
  sourcesSeen: 1,
  costUsd: 0.5,
};
const EARLIER = { sessionId: 'run-1', finishedAt: new Date('2027-03-08T14:00:00Z'), report: REPORT };
const row = (scheduleId: string | null) => ({ id: 'run-2', scheduleId }) as SessionRow;

function add(comparison: ReportComparison, earlier = true) {
  return whatChanged({ earlier: async () => (earlier ? EARLIER : null), comparison, log: silentLogger });
}

describe('what changed, added to a scheduled run’s report', () => {
  it('opens the report with the section, adds the comparison’s cost and keeps the changes', async () => {
    const changes = {
      earlierSessionId: 'run-1',
      since: EARLIER.finishedAt.toISOString(),
      material: false,
      added: [],
      gone: [],
      newFindings: [],
      dropped: [],
    };
    const report = await add({ compare: async () => ({ changes, costUsd: 0.02 }) })(
      row('s'),
      REPORT,
      new AbortController().signal,
    );
    expect(report.markdown).toBe(
      '## What changed since 8 March 2027\n\nNothing material: no new finding, and every earlier finding still has support.\n\n## Report\n\nTides follow the Moon [1].',
    );
    expect(report.costUsd).toBeCloseTo(0.52);
    expect(report.changes).toEqual(changes);
  });

  it('leaves a first run and a session that is no schedule’s as they were', async () => {
    const never: ReportComparison = {
      compare: () => {
        throw new Error('not called');
      },
    };
    const signal = new AbortController().signal;
    expect(await add(never, false)(row('s'), REPORT, signal)).toBe(REPORT);
    expect(await add(never)(row(null), REPORT, signal)).toBe(REPORT);
  });

  it('keeps the whole report when the comparison fails, and says so in one line', async () => {
    const failing: ReportComparison = {
      compare: async () => {
        throw new ProviderError(
          'unreachable',
          'the model server at 127.0.0.1:11434 cannot be reached (ECONNREFUSED)',
          true,
        );
      },
    };
    const report = await add(failing)(row('s'), REPORT, new AbortController().signal);
    expect(report.markdown).toBe(
      `_What changed since 8 March 2027 could not be worked out (the model server at 127.0.0.1:11434 cannot be reached (ECONNREFUSED)); this is the whole report._\n\n${REPORT.markdown}`,
    );
    expect(report.changes).toBeUndefined();
  });
});
