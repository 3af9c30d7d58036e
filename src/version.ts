import { readFileSync } from 'node:fs';

/** This release's version, from package.json at the project root (one level up, from src/ and from dist/). */
export const VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
