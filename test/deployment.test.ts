import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { MIGRATIONS_DIR, PROMPTS_DIR } from '../src/compose.js';

const ROOT = new URL('../', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, ROOT), 'utf8');
const pkg = JSON.parse(read('package.json')) as { engines: { node: string }; bin: Record<string, string> };

describe('the container recipe', () => {
  const dockerfile = read('Dockerfile');
  const lines = dockerfile.split('\n').filter((l) => l.trim() && !l.trimStart().startsWith('#'));

  it('builds in two stages on the newest Node line CI tests, allows from the oldest it tests, and runs as the unprivileged node user', () => {
    const bases = lines.filter((l) => l.startsWith('FROM ')).map((l) => l.split(/\s+/)[1]);
    expect(bases).toHaveLength(2);
    const tested = /^NODE_LINES="([\d ]+)"$/m.exec(read('.ci/run'))![1]!.split(' ').map(Number);
    const newest = Math.max(...tested);
    for (const base of bases) expect(base).toBe(`node:${newest}-bookworm-slim`);
    // The oldest line CI tests is the oldest the package allows.
    expect(pkg.engines.node).toMatch(new RegExp(`^>=${Math.min(...tested)}(\\.|$)`));
    expect(dockerfile).toMatch(/RUN npm ci --omit=dev/);
    const user = lines.findLastIndex((l) => l.startsWith('USER '));
    expect(lines[user]).toBe('USER node');
    // Nothing after USER runs as root again.
    expect(lines.slice(user).some((l) => /^USER\s+(root|0)\b/.test(l))).toBe(false);
  });

  it('ships every directory the app reads at run time and checks /healthz on PORT', () => {
    const copied = lines.filter((l) => l.startsWith('COPY ') && !l.includes('--from')).join('\n');
    const runtimeDirs = [PROMPTS_DIR, MIGRATIONS_DIR].map((d) => d.split('/').filter(Boolean).pop());
    for (const dir of [...runtimeDirs, 'src', 'bin']) expect(copied).toContain(`COPY ${dir} ./${dir}`);
    expect(copied).toContain('package.json');
    expect(dockerfile).toMatch(/HEALTHCHECK[^\n]*\\\n\s+CMD .*\/healthz/);
    expect(dockerfile).toContain(`ENTRYPOINT ["node", "${pkg.bin['deep-research']}"]`);
    expect(dockerfile).toContain('CMD ["serve"]');
    expect(read('.dockerignore').split('\n')).toEqual(expect.arrayContaining(['node_modules', '.env']));
  });

  it('composes the app with Postgres 15, waiting for it to be ready, with settings from .env', () => {
    const compose = parse(read('compose.yaml')) as {
      services: Record<string, Record<string, unknown>>;
    };
    const { app, postgres, worker } = compose.services;
    expect(app).toMatchObject({ build: '.', env_file: '.env', ports: ['3000:3000'] });
    expect(app!.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(postgres).toMatchObject({ image: 'postgres:15' });
    expect((postgres!.healthcheck as { test: string[] }).test.join(' ')).toContain('pg_isready');
    const env = postgres!.environment as Record<string, string>;
    const url = `postgres://${env.POSTGRES_USER}:${env.POSTGRES_PASSWORD}@postgres:5432/${env.POSTGRES_DB}`;
    expect((app!.environment as Record<string, string>).DATABASE_URL).toBe(url);
    expect((worker!.environment as Record<string, string>).DATABASE_URL).toBe(url);
    expect(worker).toMatchObject({ command: ['worker'], profiles: ['workers'] });
  });
});
