#!/usr/bin/env node
// Runs the build made at install (dist/, `npm run build`) while it is newer than every source, so a
// command starts without compiling anything; an edited checkout runs its TypeScript sources through tsx
// instead, so it never runs stale code.
import { existsSync, readdirSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const built = new URL('dist/main.js', root);

/** The newest change under src/ (and the build script), in ms. */
function newestSource() {
  let newest = statSync(new URL('scripts/build.mjs', root)).mtimeMs;
  for (const entry of readdirSync(new URL('src/', root), { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      newest = Math.max(newest, statSync(`${entry.parentPath ?? entry.path}/${entry.name}`).mtimeMs);
  }
  return newest;
}

let main;
if (existsSync(built) && statSync(built).mtimeMs >= newestSource()) {
  main = await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  main = await import('../src/main.ts');
}
await main.runFromProcess();
