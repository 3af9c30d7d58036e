import type { Deleted, ReportDeletion } from '../sessions/report-deletion.js';
import type { CommandSpec } from './command-spec.js';
import type { Io } from './io.js';

export const DELETE_COMMANDS: CommandSpec[] = [
  {
    name: 'sessions',
    sub: 'delete',
    forms: ['sessions delete ID', 'sessions delete --user ID'],
    about: [
      'Delete a report for real: its question, plan, report, kept sources and answers',
      'go at once, and what it showed in Slack (thread messages, canvas, report.md)',
      'is removed by a running serve process, retried until Slack has it. --user',
      'deletes everything a person asked (a leaver). The cost stays counted.',
    ],
    flags: {
      user: {
        type: 'string',
        value: 'ID',
        help: "every report of this person (a Slack user id, or a terminal's name)",
      },
    },
    positionals: true,
  },
];

/** `deep-research sessions delete`, run by whoever can open the database (an operator, an admin here). */
export async function deleteCommand(
  deletion: ReportDeletion,
  find: (prefix: string) => Promise<{ id: string }[]>,
  target: { id?: string; user?: string },
  actor: string,
  io: Io,
): Promise<number> {
  const admin = { id: actor, isAdmin: async () => true };
  if (target.user) {
    const done = await deletion.deleteAllOf(target.user, admin);
    if (done === 'not_admin') return 1;
    io.stdout.write(
      `Deleted ${done.deleted} ${done.deleted === 1 ? 'report' : 'reports'} of ${target.user}.\n`,
    );
    if (done.unfinished.length) {
      const ids = done.unfinished.map((r) => r.id.slice(0, 8)).join(', ');
      io.stderr.write(
        `Still running, not deleted: ${ids}. Cancel them (deep-research cancel ID), then run this again.\n`,
      );
      return 1;
    }
    return 0;
  }
  const found = target.id && /^[0-9a-f-]{8,36}$/i.test(target.id) ? await find(target.id) : [];
  if (found.length > 1) {
    io.stderr.write('error: several sessions start with that id; give more of it.\n');
    return 2;
  }
  const deleted: Deleted = found[0] ? await deletion.delete(found[0].id, admin) : { kind: 'missing' };
  const said: Record<Deleted['kind'], string> = {
    deleted:
      'Deleted. Its sources and answers are gone; a running serve process removes what it showed in Slack.',
    missing: `error: no session ${target.id ?? ''} (give at least 8 characters of its id).`,
    already: 'That session was already deleted.',
    not_yours: '',
    unfinished:
      'error: that research is still running or being delivered: cancel it (deep-research cancel ID) or wait, then delete it.',
  };
  (deleted.kind === 'deleted' || deleted.kind === 'already' ? io.stdout : io.stderr).write(
    `${said[deleted.kind]}\n`,
  );
  return deleted.kind === 'deleted' || deleted.kind === 'already' ? 0 : 1;
}
