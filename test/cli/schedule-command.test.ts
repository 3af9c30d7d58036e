import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { runCli } from '../../src/main.js';
import { silentLogger } from '../../src/ports/logger.js';
import { runService } from '../../src/run-service.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { type CliEnvironment, cliEnvironment } from '../helpers/cli-env.js';
import { io } from '../helpers/io.js';
import { eventually } from '../helpers/slack-harness.js';

let env: CliEnvironment;
let db: pg.Client;
beforeAll(async () => {
  env = await cliEnvironment(new RuleLlm({ rounds: 1 }));
  db = new pg.Client({ connectionString: env.env.DATABASE_URL });
  await db.connect();
});
afterAll(async () => {
  await db.end();
  await env.close();
});

const cli = async (...args: string[]) => {
  const streams = io();
  const code = await runCli(args, env.env, streams);
  return { code, out: streams.out.text, err: streams.err.text };
};

describe('deep-research schedule', () => {
  it('adds a schedule a worker then runs once for a missed slot, and lists what it did', async () => {
    const added = await cli(
      'schedule',
      'add',
      'weekly on monday at 9am',
      'What did our competitors ship?',
      '--tz',
      'America/New_York',
    );
    expect(added.code).toBe(0);
    const id =
      /^Scheduled ([0-9a-f]{8}): weekly on monday at 09:00 \(America\/New_York\), first run Mon, \d+ \w+ \d{4}, 09:00 [^.]+\.\n/.exec(
        added.out,
      )?.[1];
    expect(id, added.out).toBeDefined();

    // Its slot came while no worker ran, three times over.
    await db.query(
      "UPDATE schedules SET next_run_at = now() - interval '15 days' WHERE id::text LIKE $1 || '%'",
      [id],
    );
    const stop = new AbortController();
    const worker = runService(loadConfig(env.env), silentLogger, stop.signal, { mode: 'worker', pollMs: 50 });
    await eventually(
      async () =>
        (
          await db.query(
            "SELECT 1 FROM sessions s JOIN schedules c ON c.id = s.schedule_id WHERE c.id::text LIKE $1 || '%' AND s.status = 'done'",
            [id],
          )
        ).rowCount === 1,
      60_000,
      'the scheduled run done',
    );
    stop.abort();
    expect(await worker).toBe(0);

    const listed = await cli('schedule', 'list');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(
      new RegExp(
        `^${id}  weekly on monday at 09:00 \\(America/New_York\\)  next Mon, .+ 09:00 \\S+\\n          1 run(?: · \\$\\d+\\.\\d\\d)? · last: report ready\\n          What did our competitors ship\\?\\n$`,
      ),
    );
    const runs = await db.query(
      "SELECT count(*)::int AS n FROM sessions s JOIN schedules c ON c.id = s.schedule_id WHERE c.id::text LIKE $1 || '%'",
      [id],
    );
    expect(runs.rows[0].n).toBe(1);

    const changed = await cli('schedule', 'change', id!, 'monthly on the 1st at 7:30', '--tz', 'Asia/Tokyo');
    expect(changed.out).toMatch(
      new RegExp(
        `^Changed ${id}: monthly on day 1 at 07:30 \\(Asia/Tokyo\\), next run \\w+, 1 \\w+ \\d{4}, 07:30 `,
      ),
    );
    expect((await cli('schedule', 'change', id!, 'every hour')).code).toBe(1);

    expect((await cli('schedule', 'pause', id!)).out).toBe(
      `Paused ${id}: no run starts until "deep-research schedule resume ${id}".\n`,
    );
    expect((await cli('schedule', 'list')).out).toContain(
      `${id}  monthly on day 1 at 07:30 (Asia/Tokyo)  paused\n`,
    );
    expect((await cli('schedule', 'resume', id!)).out).toMatch(
      new RegExp(`^Resumed ${id}: next run \\w+, 1 `),
    );
    expect((await cli('schedule', 'remove', id!)).out).toBe(
      `Removed ${id} (monthly on day 1 at 07:30); the sessions it ran stay.\n`,
    );
    expect((await cli('schedule', 'list')).out).toBe(
      'No schedules: add one with deep-research schedule add "weekdays at 9:00" "question".\n',
    );
  }, 90_000);

  it('refuses a cadence, a time zone or a question it cannot use, and a schedule that is not yours, in one line', async () => {
    expect(await cli('schedule', 'add', 'every hour', 'Q?')).toEqual({
      code: 2,
      out: '',
      err: 'error: I could not read "every hour" as a cadence: say for example "daily at 9:00", "weekdays at 8:30", "weekly on monday at 9am", "monthly on the 1st at 10:00".\n',
    });
    expect((await cli('schedule', 'add', 'daily', 'Q?', '--tz', 'Mars/Olympus')).err).toBe(
      'error: "Mars/Olympus" is not a time zone I know: give its IANA name, such as Europe/Berlin.\n',
    );
    expect((await cli('schedule', 'add', 'daily')).code).toBe(2);
    const weekly = io();
    expect(
      await runCli(
        ['schedule', 'add', 'weekdays at 8:00', 'Q?'],
        { ...env.env, SCHEDULE_MIN_INTERVAL: 'weekly' },
        weekly,
      ),
    ).toBe(2);
    expect(weekly.err.text).toBe(
      'error: Schedules here run at most once a week (SCHEDULE_MIN_INTERVAL=weekly): say for example "weekly on monday at 9:00".\n',
    );
    const theirs = randomUUID();
    await db.query(
      `INSERT INTO schedules (id, origin, owner, question, cadence, cron, time_zone, next_run_at)
       VALUES ($1, 'cli', 'someone-else', 'Q?', 'daily at 09:00', '0 9 * * *', 'UTC', now() + interval '1 day')`,
      [theirs],
    );
    expect(userInfo().username).not.toBe('someone-else');
    expect(await cli('schedule', 'pause', theirs.slice(0, 8))).toEqual({
      code: 1,
      out: '',
      err: `error: Schedule ${theirs.slice(0, 8)} is someone-else's, not yours.\n`,
    });
    expect((await cli('schedule', 'remove', 'ffffffff')).err).toBe(
      'error: No schedule ffffffff (give at least the first 8 characters of its id): "deep-research schedule list" shows yours.\n',
    );
  });
});
