import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** pg finds a server's Unix socket as `<folder>/.s.PGSQL.<port>`. */
const PORT = 5432;
/** A Unix socket's path has at most 108 bytes on Linux, 104 on macOS. */
const SOCKET_PATH_MAX = 100;

/** How pg reaches the embedded database served in `socketDir` (by its owner's user only). */
export function socketUrl(socketDir: string): string {
  return `postgres://postgres@/postgres?host=${encodeURIComponent(socketDir)}&port=${PORT}&sslmode=disable`;
}

/**
 * The data folder is its owner's alone, whatever the umask: the folder 0700,
 * and nothing under the database's folder open to others (PGlite writes its
 * files 0666; the folder's mode already keeps others out, this says so twice).
 */
export function keepPrivate(dataDir: string, databaseDir: string): void {
  mkdirSync(databaseDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  chmodSync(databaseDir, 0o700);
  for (const entry of readdirSync(databaseDir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath ?? entry.path, entry.name);
    const { mode } = statSync(path);
    if (mode & 0o077) chmodSync(path, entry.isDirectory() ? 0o700 : 0o600);
  }
}

/** The embedded database, served by its own thread on a Unix socket only its owner's user may open. */
export interface ServedDatabase {
  /** The folder holding the socket (the data folder, or a private one when its path is too long for a socket). */
  socketDir: string;
  close(): Promise<void>;
}

/**
 * Opens PGlite on `databaseDir` in a thread of its own (pglite-thread.mjs),
 * served on a Unix socket in `dataDir` (0700, the socket 0600): no TCP port,
 * no other local user, and no statement that holds up this event loop.
 */
export async function serveEmbedded(dataDir: string, databaseDir: string): Promise<ServedDatabase> {
  const own = join(dataDir, `.s.PGSQL.${PORT}`).length <= SOCKET_PATH_MAX;
  const socketDir = own ? dataDir : mkdtempSync(join(tmpdir(), 'deep-research-'));
  const socket = join(socketDir, `.s.PGSQL.${PORT}`);
  // Left by an owner that died: nothing listens on it any more (the lock said so).
  rmSync(socket, { force: true });
  const thread = new Worker(new URL('./pglite-thread.mjs', import.meta.url), {
    workerData: { dir: databaseDir, socket },
  });
  const answer = (wanted: 'ready' | 'closed') =>
    new Promise<void>((resolve, reject) => {
      const onMessage = (message: { ready?: true; closed?: true; error?: string }) => {
        if (message.error) reject(new Error(message.error));
        else if (message[wanted]) resolve();
      };
      thread.on('message', onMessage);
      thread.once('error', reject);
      thread.once('exit', (code) => reject(new Error(`the embedded database's thread ended (${code})`)));
    });
  const forget = () => {
    rmSync(socket, { force: true });
    if (!own) rmSync(socketDir, { recursive: true, force: true });
  };
  try {
    await answer('ready');
  } catch (error) {
    await thread.terminate();
    forget();
    throw error;
  }
  return {
    socketDir,
    close: async () => {
      const closed = answer('closed').catch(() => {});
      thread.postMessage('close');
      await closed;
      await thread.terminate();
      keepPrivate(dataDir, databaseDir);
      forget();
    },
  };
}
