import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { cliEnvironment } from '../helpers/cli-env.js';
import { io } from '../helpers/io.js';

describe('the claim check from the terminal', () => {
  let cli: Awaited<ReturnType<typeof cliEnvironment>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    const llm = new RuleLlm({
      rounds: 1,
      readPages: true,
      reportExtra:
        'Spring tides come at new and full moon [1]. Tides rise twice a day because of the sun alone [1].',
      judge: (claim) => (claim.startsWith('Tides rise') ? 'unsupported' : 'supported'),
    });
    cli = await cliEnvironment(llm, {
      localPages: true,
      pageText: {
        'topic 1': ['Spring tides happen at new and full moon, when the sun and the moon pull together.'],
      },
    });
    env = cli.env;
  });
  afterAll(async () => cli.close());

  it('prints the figures, the marked sentence and the quotes, in ask and in sessions show', async () => {
    const streams = io();
    expect(await runCli(['ask', '--no-clarify', 'How do tides work?'], env, streams)).toBe(0);
    const out = streams.out.text;
    expect(out).toContain('Tides rise twice a day because of the sun alone ⚠ _unverified_.');
    expect(out).toContain(
      '   - “Spring tides happen at new and full moon, when the sun and the moon pull together.”',
    );
    const footer = out.trim().split('\n').at(-1)!;
    expect(footer).toContain(' · 3 of 3 citations checked · 1 removed · ');

    const show = io();
    expect(await runCli(['sessions', 'show', footer.match(/session ([0-9a-f-]+)_?$/)![1]!], env, show)).toBe(
      0,
    );
    expect(show.err.text).toMatch(/^Citations: 3 of 3 citations checked · 1 removed$/m);
    // The report exactly as ask printed it, with its footer: Markdown on a pipe, rendered in a terminal.
    expect(show.out.text).toBe(out);
    expect(show.out.text).toContain('\n## Report\n');
    const tty = io();
    Object.assign(tty.out, { isTTY: true, columns: 80, rows: 10_000 });
    expect(await runCli(['sessions', 'show', footer.match(/session ([0-9a-f-]+)_?$/)![1]!], env, tty)).toBe(
      0,
    );
    expect(tty.out.text).toContain('\x1b[1mReport\x1b[22m');
    expect(tty.out.text).not.toContain('## Report');
  }, 120_000);
});
