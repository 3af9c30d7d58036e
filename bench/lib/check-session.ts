import type pg from 'pg';
import { newSession } from '../../src/engine/run-session.js';
import { createContext } from '../../src/engine/session-context.js';
import { countTokens } from '../../src/llm/count-tokens.js';
import { systemClock } from '../../src/ports/clock.js';
import type { Llm } from '../../src/ports/llm.js';
import { silentLogger } from '../../src/ports/logger.js';
import { insertRunning } from '../../src/sessions/records/insert-session.js';
import type { SourceTextStore } from '../../src/store/source-text-store.js';
import { prompts, testSettings } from '../../test/helpers/engine-harness.js';

/** A page the session read, numbered as the report cites it. */
export interface ReadPage {
  n: number;
  url: string;
  title: string;
  text: string;
}

/** A recorded session that read `pages` (kept in `store`), whose claim check runs with `llm` as the judge. */
export async function checkSession(
  store: SourceTextStore,
  pool: pg.Pool,
  llm: Llm,
  check: { mode: 'lexical' | 'model'; tokens: number },
  pages: ReadPage[],
) {
  const id = crypto.randomUUID();
  await insertRunning(
    pool,
    { id, origin: 'cli', requester: 'bench', question: 'Corpus' },
    { backend: 'agents', sessionId: id },
  );
  const ctx = createContext(
    {
      llm,
      prompts,
      countTokens,
      clock: systemClock,
      logger: silentLogger,
      emit: () => {},
      saveCheckpoint: async () => {},
      sourceTexts: store,
    },
    testSettings({ citationCheck: { ...check, timeMs: 120_000 } }),
    newSession(id, { question: 'Corpus' }),
    new AbortController().signal,
    false,
  );
  for (const page of pages) {
    ctx.sources.add({ kind: 'web', key: page.url, url: page.url, title: page.title, snippet: '' });
    await store.keep(id, { key: page.url, n: page.n, url: page.url, title: page.title, text: page.text });
  }
  return ctx;
}
