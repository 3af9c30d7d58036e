import { describe, expect, it } from 'vitest';
import type { ScheduleRow } from '../../../src/sessions/records/schedule-row.js';
import type { SessionRow } from '../../../src/sessions/records/session-store.js';
import { homeView } from '../../../src/slack/render/home-view.js';

const running = {
  id: 'abc',
  question: 'Will <!channel> see this? How do tides work?',
  status: 'running',
  createdAt: new Date('2026-11-25T10:00:00Z'),
} as SessionRow;

describe('the Home view', () => {
  it("shows the person's running research with Cancel, pages, and never a mention", () => {
    const view = homeView({
      running: [running],
      schedules: [],
      reports: [],
      query: 'tides',
      page: 1,
      more: true,
      links: new Map(),
      now: new Date('2026-11-25T10:04:30Z'),
    });
    const text = JSON.stringify(view);
    expect(view.type).toBe('home');
    expect(text).toContain('_researching · 4m 30s since 2026-11-25 10:00 UTC_');
    expect(text).toContain('"action_id":"research_cancel","value":"abc"');
    expect(text).not.toContain('<!channel>');
    expect(text).toContain('No report you can see matches.');
    // Both ways to turn the page, carrying the search.
    expect(text).toContain('"text":"Previous"');
    expect(text).toContain(JSON.stringify(JSON.stringify({ q: 'tides', p: 2 })).slice(1, -1));
    expect(view.blocks.length).toBeLessThanOrEqual(100);
  });

  it("lists the person's schedules with the next run, runs, cost and last result, and Pause or Resume", () => {
    const base = {
      cadence: 'weekly on monday at 09:00',
      timeZone: 'Europe/Berlin',
      channelId: 'C1',
      nextRunAt: new Date('2026-11-30T08:00:00Z'),
      runs: 3,
      costUsd: 1.234,
      lastResult: 'report ready',
      pausedReason: null,
    };
    const schedules = [
      { ...base, id: '1a2b3c4d-0000', question: 'Competitors <!here>?', status: 'active' },
      {
        ...base,
        id: '5e6f7a8b-0000',
        question: 'Prices?',
        status: 'paused',
        pausedReason: 'I am no longer a member of its channel',
      },
    ] as ScheduleRow[];
    const view = homeView({
      running: [],
      schedules,
      reports: [],
      query: '',
      page: 0,
      more: false,
      links: new Map(),
      now: new Date(),
    });
    const text = JSON.stringify(view);
    expect(text).toContain('*Your schedules*');
    expect(text).toContain(
      '_weekly on monday at 09:00 (Europe/Berlin) · <#C1> · next <!date^1796025600^{date_short_pretty} {time}|Mon 30 Nov, 09:00 Europe/Berlin> · 3 runs, $1.23 · last: report ready_ · `1a2b3c4d`',
    );
    expect(text).toContain('paused: I am no longer a member of its channel');
    expect(text).toContain('"action_id":"home_schedule_pause","value":"1a2b3c4d-0000"');
    expect(text).toContain('"action_id":"home_schedule_resume","value":"5e6f7a8b-0000"');
    expect(text).not.toContain('<!here>');
  });
});
