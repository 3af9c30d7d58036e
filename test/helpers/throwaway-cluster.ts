import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = '/usr/lib/postgresql/15/bin';

export interface ThrowawayCluster {
  /** Admin connection string (database `postgres`). */
  url: string;
  /** `pg_ctl stop -m fast`: connections are cut, new ones refused. */
  stop(): void;
  /** Starts it again on the same port and data. */
  start(): void;
  /** SIGSTOP to the server and its backends: connections hang rather than fail. */
  freeze(): void;
  thaw(): void;
  destroy(): void;
}

/**
 * A PostgreSQL 15 cluster of its own in a temporary directory (initdb, trust
 * auth, fsync off), for the tests that stop, restart or freeze the database
 * and for machines without a running server. As root it runs as `postgres`.
 */
export async function throwawayCluster(): Promise<ThrowawayCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'pgtmp-'));
  const root = process.getuid?.() === 0;
  const asPg = (cmd: string, args: string[]) =>
    root
      ? execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' })
      : execFileSync(cmd, args, { stdio: 'pipe' });
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  const data = `${dir}/data`;
  asPg(`${BIN}/initdb`, ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off`;
  const start = () =>
    asPg(`${BIN}/pg_ctl`, ['-D', data, '-l', `${dir}/server.log`, '-w', '-o', options, 'start']);
  const stop = () => asPg(`${BIN}/pg_ctl`, ['-D', data, '-m', 'fast', '-w', 'stop']);
  const signal = (sig: 'STOP' | 'CONT') => {
    const pid = readFileSync(`${data}/postmaster.pid`, 'utf8').split('\n')[0]!.trim();
    execFileSync('kill', [`-${sig}`, pid]);
    try {
      execFileSync('pkill', [`-${sig}`, '-P', pid]);
    } catch {
      // no backends
    }
  };
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    freeze: () => signal('STOP'),
    thaw: () => signal('CONT'),
    destroy() {
      try {
        signal('CONT');
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
