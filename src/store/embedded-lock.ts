import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError } from '../ports/errors.js';

/** This process opens the folder (and serves it in `socketDir` once `publish`ed), or joins the process that has. */
export type EmbeddedClaim =
  | { owner: true; publish(socketDir: string): void; unlock(): void }
  | { owner: false; pid: number; socketDir: string };

interface Owner {
  pid: number;
  host: string;
  /** The folder of the Unix socket the owner serves the database on to the processes that join it (set once it is open). */
  socket?: string;
  /** What the owner runs, for the sentence a refused process reads. */
  command?: string;
}

/** How long a joining process waits for an owner still opening the database to serve it. */
const OPENING_WAIT_MS = 15_000;

/**
 * The embedded database belongs to one process at a time: two PGlite
 * instances on one folder corrupt each other's reads (seen as "unnamed
 * prepared statement does not exist", read timeouts, sessions left
 * running). The owner leaves its PID, and once open the folder of the
 * socket it serves the database on, in the folder. A short command (`cancel`, `sessions`,
 * `ask --background`…) may `join` a live owner through that socket; a
 * long one is refused in one sentence naming the owner, since its database
 * would go when the owner ends. A lock left by a process that died is taken.
 */
export async function claimEmbedded(
  dataDir: string,
  lock: string,
  { join = false, command }: { join?: boolean; command?: string } = {},
): Promise<EmbeddedClaim> {
  const me: Owner = { pid: process.pid, host: hostname(), ...(command && { command }) };
  for (let attempt = 0; ; attempt++) {
    try {
      // The owner's user's alone (0600 whatever the umask), as the folder is.
      writeFileSync(lock, JSON.stringify(me), { flag: 'wx', mode: 0o600 });
      return {
        owner: true,
        // Renamed into place: a reader never sees it half written.
        publish: (socket) => {
          writeFileSync(`${lock}.${process.pid}`, JSON.stringify({ ...me, socket }), { mode: 0o600 });
          renameSync(`${lock}.${process.pid}`, lock);
        },
        unlock: () => {
          if (readOwner(lock)?.pid === process.pid) rmSync(lock, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
    // Just created and not yet written, or unreadable: looked at once more before it counts as left behind.
    let owner = readOwner(lock) ?? (await sleep(200).then(() => readOwner(lock)));
    if (owner && owner.host === hostname() && alive(owner.pid)) {
      if (!join) throw inUse(dataDir, owner);
      for (const started = Date.now(); owner && !owner.socket && Date.now() - started < OPENING_WAIT_MS; ) {
        await sleep(100);
        owner = readOwner(lock);
      }
      if (owner?.socket && alive(owner.pid)) return { owner: false, pid: owner.pid, socketDir: owner.socket };
      if (owner && alive(owner.pid)) throw inUse(dataDir, owner);
    }
    // Left by a process that died (or unreadable): taken over.
    rmSync(lock, { force: true });
  }
}

function inUse(dataDir: string, owner: Owner): ConfigError {
  const who = owner.command ? `deep-research ${owner.command}, PID ${owner.pid}` : `PID ${owner.pid}`;
  return new ConfigError(
    'database_in_use',
    `The embedded database in ${dataDir} is open in another deep-research process (${who}); only short commands (cancel, sessions, usage, find, ask --background) can share it. Wait for it to end or stop it, or set DATABASE_URL to a Postgres database to run several at once.`,
  );
}

function readOwner(lock: string): Owner | null {
  try {
    const owner = JSON.parse(readFileSync(lock, 'utf8'));
    return typeof owner?.pid === 'number' ? owner : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
