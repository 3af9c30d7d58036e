import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load-config.js';
import { defaultDataDir } from '../src/data-dir.js';
import { runCli } from '../src/main.js';
import { io } from './helpers/io.js';

describe('where the embedded data lives', () => {
  it("is the user's data directory without DATA_DIR, whatever the working directory", () => {
    expect(defaultDataDir({ XDG_DATA_HOME: '/x/data', HOME: '/home/ann' }, 'linux')).toBe(
      '/x/data/deep-research',
    );
    expect(defaultDataDir({ HOME: '/home/ann' }, 'linux')).toBe('/home/ann/.local/share/deep-research');
    expect(defaultDataDir({ HOME: '/Users/ann' }, 'darwin')).toBe(
      join('/Users/ann', 'Library', 'Application Support', 'deep-research'),
    );
    expect(loadConfig({ HOME: '/home/ann' }).database.dataDir).toBe(defaultDataDir({ HOME: '/home/ann' }));
    expect(loadConfig({ HOME: '/home/ann', DATA_DIR: './mine' }).database.dataDir).toBe('./mine');
  });

  it('is printed by "where" (a database URL without its password), and --version prints the version', async () => {
    const run = async (argv: string[], env: Record<string, string>) => {
      const streams = io();
      expect(await runCli(argv, env, streams)).toBe(0);
      return streams.out.text;
    };
    expect(await run(['where'], { XDG_DATA_HOME: '/x/data' })).toBe('/x/data/deep-research\n');
    expect(await run(['where'], { DATABASE_URL: 'postgres://app:secret@db:5432/research' })).toBe(
      'Postgres at postgres://app:***@db:5432/research\n',
    );
    // libpq also takes the password as a query parameter.
    expect(
      await run(['where'], {
        DATABASE_URL: 'postgres://app@db:5432/research?password=hunter22&sslmode=require',
      }),
    ).toBe('Postgres at postgres://app@db:5432/research?password=***&sslmode=require\n');
    expect(await run(['--version'], {})).toMatch(/^deep-research \d+\.\d+\.\d+\n$/);
  });
});
