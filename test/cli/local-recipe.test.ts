import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RuleLlm } from '../fakes/rule-llm.js';
import { type CliEnvironment, cliEnvironment } from '../helpers/cli-env.js';

const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/deep-research.js');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The fenced block after `<!-- marker -->` in the README, as lines. */
function block(marker: string): string[] {
  const start = README.indexOf(`<!-- ${marker} -->`);
  expect(start, marker).toBeGreaterThan(0);
  const fenced = /```bash\n([\s\S]*?)```/.exec(README.slice(start))!;
  return fenced[1]!.trim().split('\n');
}

let fakes: CliEnvironment;
beforeAll(async () => {
  fakes = await cliEnvironment(new RuleLlm({ rounds: 1 }));
});
afterAll(async () => fakes.close());

describe("the README's local recipe", () => {
  it('produces a report from a fresh folder, with the .env lines and commands the README gives', async () => {
    const model = new URL(fakes.env.OPENAI_BASE_URL!);
    const search = fakes.env.SEARXNG_URL!;
    // The addresses of the local servers the README names, pointed at the in-repo fakes standing in for them.
    const env = block('local-recipe-env').map((line) =>
      line
        .replace('http://localhost:11434/v1', `${model.origin}${model.pathname}`)
        .replace('http://localhost:8080', search),
    );
    expect(env.some((l) => l.startsWith('OPENAI_BASE_URL=http://127.0.0.1:'))).toBe(true);
    expect(env.some((l) => l.startsWith('SEARXNG_URL=http://127.0.0.1:'))).toBe(true);
    const folder = mkdtempSync(join(tmpdir(), 'recipe-'));
    writeFileSync(join(folder, '.env'), `${env.join('\n')}\n`);
    // A fresh home: its data directory holds the embedded database, as on a new machine.
    const home = mkdtempSync(join(tmpdir(), 'recipe-home-'));
    const outputs: string[] = [];
    for (const command of block('local-recipe-commands')) {
      // Dependencies are installed already; the CLI is the repo's bin, as `npm run -s research --` runs it.
      if (command === 'npm ci') continue;
      expect(command.startsWith('npm run -s research -- ')).toBe(true);
      const line = command.replace(
        'npm run -s research -- ',
        `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} `,
      );
      const child = spawn('bash', ['-c', line], {
        cwd: folder,
        env: { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: join(home, '.local/share') },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
      });
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
      });
      const [code] = await once(child, 'exit');
      expect(code, `${command}\n${err}`).toBe(0);
      outputs.push(out);
    }
    const report = readFileSync(join(folder, 'report.md'), 'utf8');
    expect(report).toMatch(/^# .+\n/);
    expect(report).toContain('## Sources');
    expect(outputs.at(-1)).toMatch(
      /\n[0-9a-f]{8} {2}\S+ \S+ {2}done {11}How do heat pumps compare with gas boilers\?\n/,
    );
    expect(existsSync(join(home, '.local/share/deep-research'))).toBe(true);
  }, 180_000);
});
