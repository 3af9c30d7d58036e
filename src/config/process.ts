import { z } from 'zod';
import { type EnvOf, optionalText } from '../ports/env-values.js';
import type { Config } from './config-shape.js';

/** How the process logs, and the terminal's pager and editor. */
export const PROCESS_FIELDS = {
  LOG_LEVEL: optionalText.pipe(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  ),
  // The CLI's pager for a long report in a terminal (default: less); "cat" turns paging off.
  PAGER: optionalText,
  // The CLI's plan editor ([e]dit at the plan review); VISUAL wins, as in other tools.
  VISUAL: optionalText,
  EDITOR: optionalText,
};

export function readProcess(e: EnvOf<typeof PROCESS_FIELDS>): Pick<Config, 'logLevel' | 'pager' | 'editor'> {
  return { logLevel: e.LOG_LEVEL, pager: e.PAGER ?? 'less -FRX', editor: e.VISUAL ?? e.EDITOR };
}
