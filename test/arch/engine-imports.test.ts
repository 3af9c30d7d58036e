import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('architecture', () => {
  it('keeps the engine pure: only ports, zod, p-limit and the Markdown parser from outside, no environment', () => {
    const offenders: string[] = [];
    for (const file of files(join(root, 'src/engine'))) {
      const source = readFileSync(file, 'utf8');
      for (const [, spec] of source.matchAll(/from '([^']+)'/g)) {
        const target = spec!.startsWith('.') ? relative(root, resolve(dirname(file), spec!)) : spec!;
        const ok = spec!.startsWith('.')
          ? target.startsWith('src/engine/') || target.startsWith('src/ports/')
          : [
              'zod',
              'p-limit',
              'mdast',
              'mdast-util-from-markdown',
              'mdast-util-gfm',
              'micromark-extension-gfm',
              'mdast-util-to-string',
            ].includes(target);
        if (!ok) offenders.push(`${relative(root, file)} imports ${spec}`);
      }
      if (source.includes('process.env')) offenders.push(`${relative(root, file)} reads process.env`);
    }
    expect(offenders).toEqual([]);
  });

  it('keeps ports free of the rest of src: they are the contracts everything else depends on', () => {
    const offenders: string[] = [];
    for (const file of files(join(root, 'src/ports'))) {
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)) {
        if (!spec!.startsWith('.')) continue;
        const target = relative(root, resolve(dirname(file), spec!));
        if (!target.startsWith('src/ports/')) offenders.push(`${relative(root, file)} imports ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('reads the environment only in src/config.ts', () => {
    const readers = files(join(root, 'src'))
      .filter((f) => readFileSync(f, 'utf8').includes('process.env.'))
      .map((f) => relative(root, f));
    expect(readers).toEqual([]);
  });

  it('renders model text for Slack only through the link policy (modelMrkdwn), never the bare renderer', () => {
    const callers = files(join(root, 'src'))
      .filter((f) => !f.endsWith('render/mrkdwn.ts') && /markdownToMrkdwn\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f));
    expect(callers).toEqual([]);
  });
});
