// The embedded database's own thread (see embedded-database.ts). PGlite runs every statement synchronously
// on the thread that holds it: here, a long statement (a joined process's, a slow migration) holds up only
// this thread, never the owner's event loop (its HTTP acks, /healthz, the scheduler). Plain JavaScript with
// only package imports, so the build copies it as it is.
import { chmodSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const { dir, socket } = workerData;
let db;
let server;
try {
  db = await PGlite.create(dir);
  server = new PGLiteSocketServer({ db, path: socket, maxConnections: 20 });
  await server.start();
  // Only the owner's user may connect (the folder is 0700 as well).
  chmodSync(socket, 0o600);
  parentPort.postMessage({ ready: true });
} catch (error) {
  await db?.close().catch(() => {});
  parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
}

parentPort.on('message', async (message) => {
  if (message !== 'close') return;
  await server?.stop().catch(() => {});
  await db?.close().catch(() => {});
  parentPort.postMessage({ closed: true });
});
