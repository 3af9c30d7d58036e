import { pageServer } from '../helpers/page-server.js';

/**
 * A SearXNG stand-in on 127.0.0.1 (set SEARXNG_URL to `url`): each query
 * returns one result, https://example.com/<query slug>, so every session
 * has a source to cite.
 */
export async function fakeSearxngServer() {
  const server = await pageServer({
    '/search': (req, res) => {
      const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q') ?? '';
      const slug = q.toLowerCase().replace(/\W+/g, '-');
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          results: [{ url: `https://example.com/${slug}`, title: q, content: `All about ${q}.` }],
        }),
      );
    },
  });
  return { url: server.url('/'), hits: server.hits, close: server.close };
}
