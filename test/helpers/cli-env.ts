import type { Llm } from '../../src/ports/llm.js';
import { fakeOpenAiServer } from '../fakes/fake-openai-server.js';
import type { FakeModelServerOptions } from '../fakes/fake-responses-route.js';
import { fakeSearxngServer } from '../fakes/fake-searxng-server.js';
import { realPostgres } from './postgres.js';

/**
 * What `runCli` needs for a whole session against in-repo fakes: a throwaway
 * database, a fake OpenAI-compatible server answering with `llm`, a fake
 * SearXNG (with local pages the CLI may read when `localPages`), and the env.
 */
export async function cliEnvironment(
  llm: Llm,
  search: Parameters<typeof fakeSearxngServer>[0] = {},
  modelServer: FakeModelServerOptions = {},
) {
  const db = await realPostgres();
  await db.close();
  const model = await fakeOpenAiServer(llm, modelServer);
  const web = await fakeSearxngServer(search);
  const env: Record<string, string> = {
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: model.baseUrl,
    RESEARCH_MODEL: 'gpt-4.1',
    SEARXNG_URL: web.url,
    DATABASE_URL: db.url,
    LOG_LEVEL: 'silent',
    ...(search.localPages ? { ALLOW_PRIVATE_URLS: 'true' } : {}),
  };
  return { env, model, search: web, close: () => Promise.all([model.close(), web.close()]) };
}

export type CliEnvironment = Awaited<ReturnType<typeof cliEnvironment>>;
