import type { ScheduleRow } from '../sessions/records/schedule-row.js';
import { CADENCE_EXAMPLES } from '../sessions/schedules/cadence.js';
import type { ScheduleChange, ScheduleService } from '../sessions/schedules/schedule-service.js';
import { type CommandSpec, type Flag, json } from './command-spec.js';
import type { Io } from './io.js';

const one = (sub: ScheduleChange, about: string): CommandSpec => ({
  name: 'schedule',
  sub,
  forms: [`schedule ${sub} ID`],
  about: [about],
  flags: {},
  positionals: true,
});

const TZ: Flag = { type: 'string', value: 'ZONE', help: 'the IANA time zone of the cadence (Europe/Berlin)' };

/** `deep-research schedule …`: research that repeats, run by the workers. */
export const SCHEDULE_COMMANDS: CommandSpec[] = [
  {
    name: 'schedule',
    sub: 'add',
    forms: ['schedule add "CADENCE" "question" [--tz ZONE]'],
    about: [
      "Research the question again on a cadence, in this machine's time zone or --tz's:",
      `${CADENCE_EXAMPLES}.`,
      'Each run is a session a running "deep-research worker" researches, as',
      'ask --background queues one; a slot missed while no worker ran runs once',
      'when one is back.',
    ],
    flags: { tz: TZ },
    positionals: true,
  },
  {
    name: 'schedule',
    sub: 'list',
    forms: ['schedule list [--json]'],
    about: ['Your schedules: cadence, next run, runs so far, their cost and the last result.'],
    flags: { json: json('each schedule') },
    positionals: false,
  },
  {
    name: 'schedule',
    sub: 'change',
    forms: ['schedule change ID "CADENCE" [--tz ZONE]'],
    about: ['Run a schedule at a new cadence (and time zone), from its next slot.'],
    flags: { tz: TZ },
    positionals: true,
  },
  one('pause', 'Pause a schedule: no run starts until it is resumed.'),
  one(
    'resume',
    'Resume a paused schedule (a schedule paused after three refused runs, too) from its next slot.',
  ),
  one('remove', 'Remove a schedule; the sessions it ran stay.'),
];

export interface ScheduleDeps {
  schedules: ScheduleService;
  owner: string;
  /** This machine's time zone, when --tz is not given. */
  timeZone: string;
}

/** Runs `schedule SUB`; returns the exit code. */
export async function scheduleCommand(
  deps: ScheduleDeps,
  sub: string,
  positionals: string[],
  flags: { tz?: string; json?: boolean },
  io: Io,
): Promise<number> {
  if (sub === 'list') return listSchedules(await deps.schedules.list(deps.owner), Boolean(flags.json), io);
  const actor = { id: deps.owner, lists: '"deep-research schedule list"' };
  if (sub === 'add') {
    const [cadence, ...question] = positionals;
    if (!cadence || question.length === 0) {
      io.stderr.write(
        'error: give a cadence and a question, e.g. deep-research schedule add "weekdays at 9:00" "What did our competitors ship?"\n',
      );
      return 2;
    }
    const added = await deps.schedules.add({
      origin: 'cli',
      owner: deps.owner,
      cadence,
      question: question.join(' '),
      timeZone: flags.tz ?? deps.timeZone,
    });
    if (!added.done) {
      io.stderr.write(`error: ${added.sentence}\n`);
      return 2;
    }
    const s = added.schedule;
    io.stdout.write(
      `Scheduled ${s.id.slice(0, 8)}: ${s.cadence} (${s.timeZone}), first run ${when(s)}.\n` +
        'A running "deep-research worker" researches each run; see them with: deep-research schedule list\n',
    );
    return 0;
  }
  if (sub === 'change') {
    const [id, cadence] = positionals;
    if (!id || !cadence || positionals.length > 2) {
      io.stderr.write(
        'error: give the schedule and its new cadence, e.g. deep-research schedule change 1a2b3c4d "mondays at 8:00"\n',
      );
      return 2;
    }
    const changed = await deps.schedules.reschedule(id, actor, cadence, flags.tz);
    if (!changed.done) {
      io.stderr.write(`error: ${changed.sentence}\n`);
      return 1;
    }
    const s = changed.schedule;
    io.stdout.write(`Changed ${s.id.slice(0, 8)}: ${s.cadence} (${s.timeZone}), next run ${when(s)}.\n`);
    return 0;
  }
  const changed = await deps.schedules.change(positionals[0] ?? '', actor, sub as ScheduleChange);
  if (!changed.done) {
    io.stderr.write(`error: ${changed.sentence}\n`);
    return 1;
  }
  const s = changed.schedule;
  const said: Record<ScheduleChange, string> = {
    pause: `Paused ${s.id.slice(0, 8)}: no run starts until "deep-research schedule resume ${s.id.slice(0, 8)}".`,
    resume: `Resumed ${s.id.slice(0, 8)}: next run ${when(s)}.`,
    remove: `Removed ${s.id.slice(0, 8)} (${s.cadence}); the sessions it ran stay.`,
  };
  io.stdout.write(`${said[sub as ScheduleChange]}\n`);
  return 0;
}

function listSchedules(schedules: ScheduleRow[], asJson: boolean, io: Io): number {
  if (asJson) {
    for (const s of schedules) io.stdout.write(`${JSON.stringify(s)}\n`);
    return 0;
  }
  if (schedules.length === 0) {
    io.stdout.write('No schedules: add one with deep-research schedule add "weekdays at 9:00" "question".\n');
    return 0;
  }
  for (const s of schedules) {
    const state =
      s.status === 'paused' ? `paused${s.pausedReason ? ` (${s.pausedReason})` : ''}` : `next ${when(s)}`;
    const cost = s.costUsd > 0 ? ` · $${s.costUsd.toFixed(2)}` : '';
    const last = s.lastResult ? ` · last: ${s.lastResult}` : '';
    io.stdout.write(
      `${s.id.slice(0, 8)}  ${s.cadence} (${s.timeZone})  ${state}\n` +
        `          ${s.runs} ${s.runs === 1 ? 'run' : 'runs'}${cost}${last}\n` +
        `          ${s.question}\n`,
    );
  }
  return 0;
}

/** The next run, in the schedule's own time zone. */
function when(s: ScheduleRow): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: s.timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(s.nextRunAt);
}
