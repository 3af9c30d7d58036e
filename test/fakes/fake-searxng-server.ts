import { pageServer } from '../helpers/page-server.js';

/**
 * A SearXNG stand-in on 127.0.0.1 (set SEARXNG_URL to `url`): each query
 * returns one result, https://example.com/<query slug>, so every session
 * has a source to cite. With `localPages` the result is a page this server
 * serves itself (an article about the query), for sessions that read pages
 * (they need ALLOW_PRIVATE_URLS=true).
 */
export async function fakeSearxngServer(
  options: {
    localPages?: boolean;
    /** What a topic's page says instead (by topic, e.g. "topic 1"), one string per paragraph. */
    pageText?: Record<string, string[]>;
  } = {},
) {
  // The web as it is now: a new edition moves every result to a new address and title (a later run's sources).
  let edition = '';
  const server = await pageServer({
    '*': (req, res) => {
      const topic = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.slice(1)).replace(
        /-/g,
        ' ',
      );
      const paragraphs = (
        options.pageText?.[topic] ??
        Array.from(
          { length: 4 },
          (_, i) => `Fact ${i + 1} about ${topic}, explained at length for readers who want the details.`,
        )
      ).map((p) => `<p>${p}</p>`);
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<html><head><title>About ${topic}</title></head><body><article><h1>About ${topic}</h1>${paragraphs.join('')}</article></body></html>`,
        );
    },
    '/search': (req, res) => {
      const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q') ?? '';
      const slug = q.toLowerCase().replace(/\W+/g, '-');
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          results: [
            {
              url: options.localPages
                ? server.url(`/${slug}`)
                : `https://example.com/${slug}${edition && `-${edition}`}`,
              title: edition ? `${q} (${edition})` : q,
              content: `All about ${q}.`,
            },
          ],
        }),
      );
    },
  });
  return {
    url: server.url('/'),
    hits: server.hits,
    close: server.close,
    /** Results from now on are this edition's (web results only: local pages keep their addresses). */
    setEdition: (name: string) => {
      edition = name;
    },
  };
}
