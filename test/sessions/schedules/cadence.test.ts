import { describe, expect, it } from 'vitest';
import {
  knownTimeZone,
  nextSlot,
  readCadence,
  slotSessionId,
  splitCadence,
} from '../../../src/sessions/schedules/cadence.js';

describe('a cadence in words', () => {
  it.each([
    ['daily at 9:00', 'daily at 09:00', '0 9 * * *', 'daily'],
    ['every day at 7am', 'daily at 07:00', '0 7 * * *', 'daily'],
    ['Every weekday at 8:30', 'weekdays at 08:30', '30 8 * * 1-5', 'daily'],
    ['weekdays at 5 pm', 'weekdays at 17:00', '0 17 * * 1-5', 'daily'],
    ['weekly on Monday at 9am', 'weekly on monday at 09:00', '0 9 * * 1', 'weekly'],
    ['every friday at noon', 'weekly on friday at 12:00', '0 12 * * 5', 'weekly'],
    ['mondays', 'weekly on monday at 09:00', '0 9 * * 1', 'weekly'],
    ['every tue at 18:15', 'weekly on tuesday at 18:15', '15 18 * * 2', 'weekly'],
    ['monthly on the 1st at 10:00', 'monthly on day 1 at 10:00', '0 10 1 * *', 'monthly'],
    ['each month on day 15 at 12am', 'monthly on day 15 at 00:00', '0 0 15 * *', 'monthly'],
  ])('reads "%s" as %s', (text, label, cron, every) => {
    expect(readCadence(text)).toEqual({ label, cron, every });
  });

  it.each([
    'every hour',
    'every 5 minutes',
    'daily at 25:00',
    'daily at 13pm',
    'weekly',
    'every blursday at 9',
    'monthly at 9',
    'daily at 9 and weekly on monday',
  ])('refuses "%s" in one sentence with examples', (text) => {
    const read = readCadence(text);
    expect(read).toEqual({ refusal: expect.stringContaining('"daily at 9:00", "weekdays at 8:30"') });
  });

  it('refuses a day of the month some months lack, and says which days work', () => {
    expect(readCadence('monthly on the 31st')).toEqual({
      refusal: 'Day 31 is missing from some months: choose a day from 1 to 28.',
    });
  });
});

describe('the next slot', () => {
  it('keeps a weekly run at 9:00 in New York across the end of daylight saving time', () => {
    const cron = '0 9 * * 1';
    let at = new Date('2026-10-20T00:00:00Z');
    const runs: string[] = [];
    for (let i = 0; i < 3; i++) {
      at = nextSlot(cron, 'America/New_York', at);
      runs.push(at.toISOString());
    }
    // 9:00 EDT (UTC-4) on 26 October; 9:00 EST (UTC-5) after 1 November.
    expect(runs).toEqual([
      '2026-10-26T13:00:00.000Z',
      '2026-11-02T14:00:00.000Z',
      '2026-11-09T14:00:00.000Z',
    ]);
  });

  it('runs a time skipped by the spring change once that day, and a daily run once on a day that repeats an hour', () => {
    const skipped = nextSlot('30 2 * * *', 'Europe/Berlin', new Date('2027-03-27T12:00:00Z'));
    expect(skipped.toISOString().slice(0, 10)).toBe('2027-03-28');
    const after = nextSlot('30 2 * * *', 'Europe/Berlin', skipped);
    expect(after.toISOString().slice(0, 10)).toBe('2027-03-29');
    // 02:30 happens twice on 31 October 2027 in Berlin: one run.
    const first = nextSlot('30 2 * * *', 'Europe/Berlin', new Date('2027-10-30T12:00:00Z'));
    const second = nextSlot('30 2 * * *', 'Europe/Berlin', first);
    expect(second.getTime() - first.getTime()).toBeGreaterThan(20 * 3600_000);
  });

  it('knows time zones by their IANA names', () => {
    expect(knownTimeZone('Asia/Tokyo')).toBe(true);
    expect(knownTimeZone('Mars/Olympus')).toBe(false);
  });

  it('names a slot run by the same session id in every process, another for the next slot', () => {
    const a = slotSessionId('7c9e6679-7425-40de-944b-e07fc1f90ae7', new Date('2026-11-02T14:00:00Z'));
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(slotSessionId('7c9e6679-7425-40de-944b-e07fc1f90ae7', new Date('2026-11-02T14:00:00Z'))).toBe(a);
    expect(slotSessionId('7c9e6679-7425-40de-944b-e07fc1f90ae7', new Date('2026-11-09T14:00:00Z'))).not.toBe(
      a,
    );
  });
});

describe('a cadence followed by a question (/research every …)', () => {
  it('takes the longest start that reads as a cadence, and the rest as the question', () => {
    expect(splitCadence('weekly on monday at 9am what changed in EU AI rules?')).toEqual({
      cadence: 'weekly on monday at 9am',
      question: 'what changed in EU AI rules?',
    });
    expect(splitCadence('daily what is new in solar')).toEqual({
      cadence: 'daily',
      question: 'what is new in solar',
    });
    expect(splitCadence('every monday at 9:00 prices of GPUs')).toEqual({
      cadence: 'every monday at 9:00',
      question: 'prices of GPUs',
    });
  });

  it('refuses text without a cadence or without a question, and a day some months lack', () => {
    expect(splitCadence('company that uses Rust?')).toEqual({
      refusal: expect.stringMatching(/^Start with how often, then the question: for example "daily at 9:00"/),
    });
    expect(splitCadence('daily')).toHaveProperty('refusal');
    expect(splitCadence('monthly on the 31st at 9 how are prices')).toEqual({
      refusal: 'Day 31 is missing from some months: choose a day from 1 to 28.',
    });
  });
});
