/** Wall-clock time, injectable so prompts' dates and elapsed times are deterministic in tests. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
