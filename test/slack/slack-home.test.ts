import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../src/ports/logger.js';
import { SlackHome } from '../../src/slack/slack-home.js';

/** A Home over a library that answers after `delays` (one per call, in order), recording each view published. */
function home(delays: number[] = []) {
  const published: string[] = [];
  const log: Logger = { info() {}, warn() {}, error() {}, child: () => log };
  const deps = {
    sessions: { activeSessions: async () => [] },
    library: {
      page: async (words: string) => {
        const delay = delays.shift();
        if (delay) await new Promise((r) => setTimeout(r, delay));
        return { reports: [], more: false, words };
      },
    },
    members: { has: async () => true },
    schedules: { list: async () => [] },
    api: {
      isAdmin: async () => false,
      call: (_method: string, send: () => Promise<unknown>) => send(),
      client: {
        views: { publish: async (args: { view: unknown }) => published.push(JSON.stringify(args.view)) },
      },
    },
    log,
    maxQuestionChars: 2000,
  };
  return { home: new SlackHome(deps as unknown as ConstructorParameters<typeof SlackHome>[0]), published };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('SlackHome', () => {
  it("keeps a person's search when their sessions change and the Home is refreshed", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const { home: h, published } = home();
    await h.publish('UANN', 'T1', 'harbour');
    expect(published.at(-1)).toContain('Reports matching');
    h.refresh('UANN', 'T1');
    await vi.runAllTimersAsync();
    expect(published).toHaveLength(2);
    expect(published.at(-1)).toContain('Reports matching \\"harbour\\"');
    // Opening the tab shows the listing again, and so does the next refresh.
    await h.publish('UANN', 'T1');
    h.refresh('UANN', 'T1');
    await vi.runAllTimersAsync();
    expect(published.at(-1)).not.toContain('Reports matching');
  });

  it("publishes one person's views in the order they were asked for, whichever is slower to read", async () => {
    // The listing reads slowly, the search quickly: the search, asked for last, is the view left.
    const { home: h, published } = home([200, 0]);
    await Promise.all([h.publish('UANN', 'T1'), h.publish('UANN', 'T1', 'harbour')]);
    expect(published).toHaveLength(2);
    expect(published[0]).not.toContain('Reports matching');
    expect(published[1]).toContain('Reports matching');
  });
});
