import { createHash } from 'node:crypto';
import { Cron } from 'croner';

/** How often a schedule runs, as a person said it and as cron reads it, in a time zone. */
export interface Cadence {
  /** What a person reads back ("weekdays at 09:00"). */
  label: string;
  /** Five-field cron: minute hour day-of-month month day-of-week. */
  cron: string;
  /** How often it runs at most: weekdays count as daily. */
  every: Interval;
}

export type Interval = 'daily' | 'weekly' | 'monthly';

const RANK: Record<Interval, number> = { daily: 0, weekly: 1, monthly: 2 };

/** Whether a cadence that runs `every` runs more often than `min` allows. */
export function moreOftenThan(every: Interval, min: Interval): boolean {
  return RANK[every] < RANK[min];
}

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const SHORT_DAYS = DAYS.map((d) => d.slice(0, 3));

/** What `readCadence` understands, for the sentence a refused cadence gets. */
export const CADENCE_EXAMPLES =
  '"daily at 9:00", "weekdays at 8:30", "weekly on monday at 9am", "monthly on the 1st at 10:00"';

/**
 * A cadence in words: daily, weekdays, weekly on a day, or monthly on a day
 * of the month (1–28, so every month has it), each at a time (09:00 when
 * none is given). Nothing more often than daily: research that repeats by
 * the hour is a feed, not research. Returns the refusal's sentence instead
 * when it cannot be read.
 */
export function readCadence(text: string): Cadence | { refusal: string } {
  const all = text
    .toLowerCase()
    .replace(/[,.;]+(\s|$)/g, ' ')
    .split(/\s+/)
    .filter((w) => w && w !== 'every' && w !== 'each');
  // "every day", "each month", "every week" name the cadence; "on", "the", "of", "day" after it only join.
  const unit: Record<string, string> = { day: 'daily', month: 'monthly', week: 'weekly' };
  const first = all[0] && unit[all[0]] ? unit[all[0]]! : all[0];
  const words = [first, ...all.slice(1).filter((w) => !['on', 'the', 'of', 'day'].includes(w))].filter(
    (w): w is string => Boolean(w),
  );
  const refused = {
    refusal: `I could not read "${text.trim()}" as a cadence: say for example ${CADENCE_EXAMPLES}.`,
  };
  const at = words.indexOf('at');
  const timeWords = at >= 0 ? words.slice(at + 1) : [];
  const when = at >= 0 ? words.slice(0, at) : words;
  const time = timeWords.length ? readTime(timeWords.join('')) : { hour: 9, minute: 0 };
  if (!time) return refused;
  const hhmm = `${String(time.hour).padStart(2, '0')}:${String(time.minute).padStart(2, '0')}`;
  const clock = `${time.minute} ${time.hour}`;
  const [kind, ...rest] = when;
  if ((kind === 'daily' || kind === 'everyday') && rest.length === 0)
    return { label: `daily at ${hhmm}`, cron: `${clock} * * *`, every: 'daily' };
  if ((kind === 'weekdays' || kind === 'weekday') && rest.length === 0)
    return { label: `weekdays at ${hhmm}`, cron: `${clock} * * 1-5`, every: 'daily' };
  const day = dayOfWeek(kind === 'weekly' ? rest[0] : kind);
  if (day !== undefined && rest.length <= (kind === 'weekly' ? 1 : 0))
    return { label: `weekly on ${DAYS[day]} at ${hhmm}`, cron: `${clock} * * ${day}`, every: 'weekly' };
  if (kind === 'monthly' && rest.length === 1) {
    const date = Number(/^(\d{1,2})(st|nd|rd|th)?$/.exec(rest[0]!)?.[1]);
    if (date >= 1 && date <= 28)
      return { label: `monthly on day ${date} at ${hhmm}`, cron: `${clock} ${date} * *`, every: 'monthly' };
    if (date > 28 && date <= 31)
      return { refusal: `Day ${date} is missing from some months: choose a day from 1 to 28.` };
  }
  return refused;
}

/**
 * A cadence followed by a question, as `/research every …` is typed
 * ("weekdays at 9am what did our competitors ship?"): the longest start
 * that reads as a cadence, and the rest.
 */
export function splitCadence(text: string): { cadence: string; question: string } | { refusal: string } {
  const words = text.trim().split(/\s+/);
  for (let n = Math.min(words.length - 1, 9); n >= 1; n--) {
    const cadence = words.slice(0, n).join(' ');
    if (!('refusal' in readCadence(cadence))) return { cadence, question: words.slice(n).join(' ') };
  }
  const refused = readCadence(words.slice(0, 4).join(' '));
  return 'refusal' in refused && /missing from some months/.test(refused.refusal)
    ? refused
    : {
        refusal: `Start with how often, then the question: for example ${CADENCE_EXAMPLES}, then your question.`,
      };
}

function readTime(text: string): { hour: number; minute: number } | undefined {
  const m = /^(\d{1,2})(?:[:h.](\d{2}))?(am|pm)?$/.exec(text);
  if (!m) return text === 'noon' ? { hour: 12, minute: 0 } : undefined;
  let hour = Number(m[1]);
  const minute = Number(m[2] ?? 0);
  if (m[3]) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (m[3] === 'pm' ? 12 : 0);
  }
  return hour <= 23 && minute <= 59 ? { hour, minute } : undefined;
}

function dayOfWeek(word: string | undefined): number | undefined {
  if (!word) return undefined;
  const name = word.replace(/s$/, '');
  const day = DAYS.indexOf(name);
  if (day >= 0) return day;
  const short = SHORT_DAYS.indexOf(name);
  return short >= 0 ? short : undefined;
}

/** Whether `zone` is an IANA time zone this runtime knows ("Europe/Berlin"). */
export function knownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The first slot strictly after `after`: the cron's wall-clock time in
 * `timeZone`, across daylight-saving changes (croner: a time skipped by the
 * change runs an hour later that day, a time that happens twice runs once).
 */
export function nextSlot(cron: string, timeZone: string, after: Date): Date {
  const next = new Cron(cron, { timezone: timeZone, paused: true }).nextRun(after);
  if (!next) throw new Error(`the cadence "${cron}" has no next run`);
  return next;
}

/**
 * The session id of a schedule's run for one slot: the same in every process,
 * so a slot admitted twice (two workers, a restart between claiming and
 * admitting) meets its own session and runs once.
 */
export function slotSessionId(scheduleId: string, slot: Date): string {
  const hex = createHash('sha256').update(`${scheduleId}@${slot.toISOString()}`).digest('hex');
  // Shaped as an RFC 9562 version 8 (custom) UUID.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((Number.parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
