import { describe, expect, it } from 'vitest';
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
});
