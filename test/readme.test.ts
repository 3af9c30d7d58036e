import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommand, specFor } from '../src/cli/commands.js';
import { CONFIG_VARIABLES } from '../src/config/load-config.js';

const ROOT = join(import.meta.dirname, '..');
const README = join(ROOT, 'README.md');
const DOCS = readdirSync(join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => join(ROOT, 'docs', f));
const read = (file: string) => readFileSync(file, 'utf8');
const readme = read(README);

/** The text of code spans and fenced blocks, where commands are written. */
function code(markdown: string): string[] {
  const fenced = [...markdown.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n'));
  const spans = [...markdown.replace(/```[\s\S]*?```/g, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
  return [...fenced, ...spans];
}

/** The CLI invocations in `lines` (starting one, or after `$ ` or `&&`): what follows `deep-research` or `npm run research --`. */
function invocations(lines: string[]): string[][] {
  const found: string[][] = [];
  // A synopsis's optional parts ([--json]) are read as given.
  for (const line of lines)
    for (const m of line.matchAll(
      /(?:^\s*|&&\s*|\$\s+)(?:deep-research|npm run(?: -s)? research --)\s+([a-z][^;&|#)]*)/g,
    ))
      found.push(
        [...m[1]!.replace(/[[\]]/g, '').matchAll(/"[^"]*"|'[^']*'|\S+/g)]
          .map((a) => a[0].replace(/^["']|["']$/g, ''))
          .filter((a) => a !== '...' && a !== '…'),
      );
  return found;
}

/** GitHub's anchor for a heading. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- ]/gu, '')
    .replaceAll(' ', '-');

describe('the README', () => {
  it('is short enough to read: 300 lines at most, the rest in docs/', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('names every command as the CLI parses it, in the README and in docs/', () => {
    const seen = new Set<string>();
    for (const file of [README, ...DOCS])
      for (const args of invocations(code(read(file)))) {
        const [name, ...rest] = args;
        if (name === 'help') continue;
        const spec = specFor(name!, rest[0]);
        expect(spec, `${file}: deep-research ${args.join(' ')}`).toBeDefined();
        // Its flags are the command's own (a placeholder such as ID or "question" is a positional).
        const given = spec!.sub ? rest.slice(1) : rest;
        expect(() => parseCommand(spec!, given), `${file}: deep-research ${args.join(' ')}`).not.toThrow();
        seen.add(name!);
      }
    // The README's own table and recipes name the commands a newcomer needs.
    for (const name of ['ask', 'sessions', 'serve', 'worker', 'kb', 'cancel', 'resume'])
      expect(seen).toContain(name);
  });

  it('lists every variable the configuration reads in its table, and nothing the configuration does not read', () => {
    const table = readme.slice(readme.indexOf('| variable | default | meaning |'));
    const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
    const named = rows.flatMap((row) =>
      [...row.split('|')[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]!),
    );
    expect(new Set(named).size).toBe(named.length);
    expect([...named].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('runs only npm scripts that exist', () => {
    const scripts = Object.keys(JSON.parse(read(join(ROOT, 'package.json'))).scripts);
    for (const file of [README, ...DOCS])
      for (const m of read(file).matchAll(/npm run(?: -s)? ([a-z][\w:-]*)/g))
        expect(scripts, `${file}: npm run ${m[1]}`).toContain(m[1]);
  });

  it('links only to files and headings that exist, here and in docs/', () => {
    for (const file of [README, ...DOCS]) {
      const text = read(file).replace(/```[\s\S]*?```/g, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^(https?:|mailto:|@)/.test(target)) continue;
        const [path, anchor] = target.split('#');
        const to = path ? resolve(dirname(file), path) : file;
        expect(existsSync(to), `${file} → ${target}`).toBe(true);
        if (anchor) {
          const headings = [...read(to).matchAll(/^#{1,6} (.+)$/gm)].map((h) => slug(h[1]!));
          expect(headings, `${file} → ${target}`).toContain(anchor);
        }
      }
    }
  });
});
