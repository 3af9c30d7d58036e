import type { ModelCheck, ModelStanding } from '../ports/model-standing.js';
import type { Io } from './io.js';

/**
 * `deep-research doctor`: every configured model (the hosted one too, whatever
 * RESEARCH_BACKEND says), whether its server lists it, its shutdown date and
 * where its price comes from, then each problem and warning in a sentence.
 * Exit 1 when a model will not work (or its server cannot be asked).
 */
export async function doctorCommand(
  models: ModelCheck,
  io: Io,
  json: boolean,
  /** Sends a research model one small turn, to learn which API serves it. */
  probe?: (w: { model: string }) => Promise<unknown>,
): Promise<number> {
  if (!models.watched.length) {
    io.stderr.write(
      'error: no model can be checked: set OPENAI_API_KEY, or OPENAI_BASE_URL for an OpenAI-compatible server.\n',
    );
    return 1;
  }
  const standings = await models.check(probe);
  if (json) {
    for (const s of standings) io.stdout.write(`${JSON.stringify(s)}\n`);
  } else {
    const rows = standings.map((s) => [
      s.variable,
      s.model,
      listedText(s),
      s.api ? `api: ${s.api}` : '',
      s.shutdownDate ? `shuts down ${s.shutdownDate}` : 'no shutdown announced',
      `price: ${s.priceSource}`,
      s.server,
    ]);
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const row of rows)
      io.stdout.write(
        `${row
          .map((cell, i) => cell.padEnd(widths[i]!))
          .join('  ')
          .trimEnd()}\n`,
      );
    for (const s of standings) {
      if (s.problem) io.stdout.write(`\nproblem: ${s.problem}`);
      if (s.warning) io.stdout.write(`\nwarning: ${s.warning}`);
    }
    if (standings.some((s) => s.problem || s.warning)) io.stdout.write('\n');
  }
  return standings.some((s) => s.problem) ? 1 : 0;
}

function listedText(s: ModelStanding): string {
  if (s.listed === null) return s.problem ? 'not checked' : 'server lists no models';
  return s.listed ? 'listed' : 'NOT LISTED';
}
