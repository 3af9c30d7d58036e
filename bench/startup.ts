// How fast the CLI starts: `--version`, `help` and the first line `ask` prints (against an in-repo fake
// model server and search, on the embedded database), run the way a person runs it (bin/deep-research.js),
// beside `node -e 0`. "Cold" is the first run after a fresh build (and, for the sources through tsx, with
// tsx's cache emptied); "warm" is the median of the next five. Both ways are measured: the build made at
// install (dist/) and the TypeScript sources through tsx (an edited checkout).
//   npm run bench:startup
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeOpenAiServer } from '../test/fakes/fake-openai-server.js';
import { fakeSearxngServer } from '../test/fakes/fake-searxng-server.js';
import { RuleLlm } from '../test/fakes/rule-llm.js';
import { fmt, median, report } from './lib/stats.js';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/deep-research.js');

/** Milliseconds until the process ends, or until `until` appears on its stderr (then it is killed). */
function timed(args: string[], env: Record<string, string>, until?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? '', ...env }, cwd: ROOT });
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d;
      if (until && err.includes(until)) {
        resolve(performance.now() - started);
        child.kill('SIGKILL');
      }
    });
    child.on('exit', (code) => {
      if (until && !err.includes(until)) reject(new Error(`no "${until}" (exit ${code}): ${err}`));
      else resolve(performance.now() - started);
    });
  });
}

async function series(run: () => Promise<number>, before: () => void) {
  before();
  const cold = await run();
  const warm: number[] = [];
  for (let i = 0; i < 5; i++) warm.push(await run());
  return { cold, warm: median(warm) };
}

const build = () =>
  new Promise<void>((resolve, reject) =>
    spawn(process.execPath, [join(ROOT, 'scripts/build.mjs')], { stdio: 'inherit' }).on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`build exited ${code}`)),
    ),
  );

const model = await fakeOpenAiServer(new RuleLlm({ rounds: 1, delayMs: 60_000 }));
const web = await fakeSearxngServer({});
const data = mkdtempSync(join(tmpdir(), 'bench-startup-'));
const tsxCache = mkdtempSync(join(tmpdir(), 'bench-startup-tsx-'));
const env = {
  OPENAI_API_KEY: 'sk-test',
  OPENAI_BASE_URL: model.baseUrl,
  RESEARCH_MODEL: 'gpt-4.1',
  // Each timed ask is killed once it has printed its first line: its session stays open.
  MAX_SESSIONS_PER_USER: '1000',
  SEARXNG_URL: web.url,
  DATA_DIR: data,
  HOME: data,
  // tsx keeps its compiled files under the temporary folder: emptied for a cold run.
  TMPDIR: tsxCache,
};
const figures: Record<string, number> = {};
try {
  const node = await series(
    () => timed(['-e', '0'], env),
    () => {},
  );
  console.log(`node -e 0                      cold ${fmt(node.cold, 0)} ms   warm ${fmt(node.warm, 0)} ms`);
  figures.nodeWarmMs = node.warm;
  for (const way of ['build', 'sources'] as const) {
    const fresh = async () => {
      await build();
      // The sources through tsx: a source newer than the build makes bin/ use them.
      if (way === 'sources') utimesSync(join(ROOT, 'src/main.ts'), new Date(), new Date());
      rmSync(tsxCache, { recursive: true, force: true });
      mkdirSync(tsxCache);
    };
    for (const [name, args, until] of [
      ['--version', ['--version'], undefined],
      ['help', ['help'], undefined],
      ['ask (first line)', ['ask', '--no-clarify', '--yes', 'How do tides work?'], 'Researching:'],
    ] as const) {
      await fresh();
      const s = await series(
        () => timed([BIN, ...args], env, until),
        () => {},
      );
      console.log(`${`${way}: ${name}`.padEnd(31)}cold ${fmt(s.cold, 0)} ms   warm ${fmt(s.warm, 0)} ms`);
      figures[`${way}.${name}.coldMs`] = s.cold;
      figures[`${way}.${name}.warmMs`] = s.warm;
    }
  }
} finally {
  await build();
  await Promise.all([model.close(), web.close()]);
  rmSync(data, { recursive: true, force: true });
  rmSync(tsxCache, { recursive: true, force: true });
}
report('startup', figures);
