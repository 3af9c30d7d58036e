import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { ConfigError } from '../ports/errors.js';

/**
 * The embedded database belongs to one process at a time: two PGlite
 * instances on one folder corrupt each other's reads (seen as "unnamed
 * prepared statement does not exist", read timeouts, sessions left
 * running). The owner leaves its PID in the folder; a second process is
 * refused in one sentence while that process lives, and takes a lock left by
 * one that died.
 */
export function lockEmbedded(dataDir: string, lock: string): () => void {
  const mine = JSON.stringify({ pid: process.pid, host: hostname() });
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lock, mine, { flag: 'wx' });
      return () => {
        if (readOwner(lock)?.pid === process.pid) rmSync(lock, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
    const owner = readOwner(lock);
    if (owner && owner.host === hostname() && alive(owner.pid))
      throw new ConfigError(
        'database_in_use',
        `The embedded database in ${dataDir} is in use by another deep-research process (PID ${owner.pid}): wait for it to end or stop it, or set DATABASE_URL to a Postgres database to run several at once.`,
      );
    // Left by a process that died (or unreadable): taken over.
    rmSync(lock, { force: true });
  }
}

function readOwner(lock: string): { pid: number; host: string } | null {
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
