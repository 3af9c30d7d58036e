import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every relative import under these folders, as repository paths (`.js` read as the `.ts` it is). */
function importsOf(dirs: string[]): { file: string; target: string }[] {
  return dirs.flatMap((dir) =>
    files(join(root, dir)).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)].map(([, spec]) => ({
        file: relative(root, file),
        target: relative(root, resolve(dirname(file), spec!)).replace(/\.js$/, '.ts'),
      })),
    ),
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

  it('lets surfaces (Slack, the terminal) read sessions only through the research port, never the engine state', () => {
    const internals = [
      'src/engine/session-state.ts',
      'src/engine/run-session.ts',
      'src/engine/session-context.ts',
      'src/engine/settings.ts',
      'src/backends/agents/agents-backend.ts',
      'src/engine/engine-backend.ts',
      'src/backends/deep-research-api/deep-research-backend.ts',
    ];
    const offenders = importsOf(['src/slack', 'src/cli']).filter(({ target }) => internals.includes(target));
    expect(offenders.map(({ file, target }) => `${file} imports ${target}`)).toEqual([]);
  });

  it('runs research only through the port: the engine loop only in backends, a backend only through the one list', () => {
    const offenders = importsOf(['src'])
      .filter(
        ({ file, target }) =>
          (target === 'src/engine/run-session.ts' &&
            !file.startsWith('src/engine/') &&
            !file.startsWith('src/backends/')) ||
          (/^src\/backends\/[^/]+\//.test(target) &&
            !file.startsWith(target.split('/').slice(0, 3).join('/')) &&
            file !== 'src/backends/backend-list.ts'),
      )
      .map(({ file, target }) => `${file} imports ${target}`);
    expect(offenders).toEqual([]);
  });

  it('writes a session status only in the lifecycle, each write guarded by the transition table', () => {
    const updates = (source: string) =>
      source
        .split(/UPDATE sessions\b/)
        .slice(1)
        .map((u) => u.split('`')[0]!);
    const writesStatus = (u: string) => /SET[\s\S]*?\bstatus = (\$\d+|CASE)/.test(u);
    // The lifecycle, and its part for the sessions a terminal runs in its own process.
    const owners = ['sessions/records/session-lifecycle.ts', 'sessions/records/terminal-lifecycle.ts'];
    const elsewhere = files(join(root, 'src'))
      .filter((f) => !owners.some((o) => f.endsWith(o)))
      .filter((f) =>
        updates(readFileSync(f, 'utf8')).some((u) => /\bstatus =(?! ANY)/.test(u.split('WHERE')[0]!)),
      )
      .map((f) => relative(root, f));
    expect(elsewhere).toEqual([]);
    const lifecycle = readFileSync(join(root, 'src/sessions/records/session-lifecycle.ts'), 'utf8');
    const writes = updates(lifecycle).filter(writesStatus);
    // begin, requeueAnswered, cancelWaiting, expireClarifications, settleDelivery and move.
    expect(writes).toHaveLength(6);
    for (const write of writes) {
      expect(write).toMatch(/status = ANY\(\$\d+::text\[\]\)/);
      expect(write).not.toMatch(/status (=|IN) \(?'/);
    }
    expect(lifecycle.match(/movesTo\(/g)?.length).toBeGreaterThanOrEqual(7);
    const terminal = readFileSync(join(root, 'src/sessions/records/terminal-lifecycle.ts'), 'utf8');
    const terminalWrites = updates(terminal).filter(writesStatus);
    // interruptLapsed, interrupt, resume, answered, cancelInterrupted.
    expect(terminalWrites).toHaveLength(5);
    for (const write of terminalWrites) {
      expect(write).toMatch(/status = ANY\(\$\d+::text\[\]\)/);
      expect(write).not.toMatch(/status (=|IN) \(?'/);
    }
    expect(terminal.match(/movesTo\(/g)?.length).toBe(5);
  });

  it('keeps every source file at 300 lines or fewer', () => {
    const long = files(join(root, 'src'))
      .map((f) => [relative(root, f), readFileSync(f, 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > 300);
    expect(long).toEqual([]);
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
