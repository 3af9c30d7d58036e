import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackApi } from '../../../src/slack/api/slack-api.js';
import { downloadFile, onSlackFileHost, type SlackFile } from '../../../src/slack/api/slack-files.js';

let origin = '';
const seen: (string | undefined)[] = [];
let elsewhereOrigin = '';
const server = createServer((req, res) => {
  seen.push(req.headers.authorization);
  if (req.url?.startsWith('/signin')) res.end('<!DOCTYPE html><html>Sign in</html>');
  else if (req.url?.startsWith('/away')) res.writeHead(302, { location: `${elsewhereOrigin}/stolen` }).end();
  else if (req.url?.startsWith('/moved')) res.writeHead(301, { location: '/f?bytes=7' }).end();
  else res.end(Buffer.alloc(Number(new URL(req.url!, origin).searchParams.get('bytes') ?? 10), 'a'));
});
/** Another host: what reaches it (a token, a request at all) is what must never happen. */
const reachedElsewhere: (string | undefined)[] = [];
const elsewhere = createServer((req, res) => {
  reachedElsewhere.push(req.headers.authorization ?? 'no token');
  res.end('a page that is not the file');
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  elsewhereOrigin = `http://localhost:${(elsewhere.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
});

const api = () =>
  ({ client: { token: 'xoxb-secret', slackApiUrl: `${origin}/api/` } }) as unknown as SlackApi;
const file = (path: string, size = 10): SlackFile => ({
  id: 'F1',
  name: 'a.txt',
  size,
  url: `${origin}${path}`,
  ts: '1.0',
});

describe('reading a shared file', () => {
  it('sends the bot token only to Slack, stops past the size limit, and names a sign-in page', async () => {
    expect((await downloadFile(api(), file('/f?bytes=10'), 100)).length).toBe(10);
    expect(seen.at(-1)).toBe('Bearer xoxb-secret');
    // Slack said 10 bytes, the server sends more: reading stops at the limit.
    await expect(downloadFile(api(), file('/f?bytes=5000'), 1000)).rejects.toThrow(/larger than/);
    await expect(downloadFile(api(), file('/f', 5_000_000), 1_048_576)).rejects.toThrow(
      'it is larger than 1 MB (4.8 MB)',
    );
    await expect(downloadFile(api(), file('/signin'), 1000)).rejects.toThrow(/files:read/);
    const before = seen.length;
    const elsewhere = { ...file('/f'), url: 'http://127.0.0.2:9/f' };
    await expect(downloadFile(api(), elsewhere, 1000)).rejects.toThrow(
      "the file is not on Slack's file host (http://127.0.0.2:9)",
    );
    expect(seen.length).toBe(before);
  });

  it('allows Slack’s file host only over https on its default port, and follows no redirect off it', async () => {
    const slack = 'https://slack.com/api/';
    expect(onSlackFileHost(new URL('https://files.slack.com/files-pri/T1-F1/a.pdf'), slack)).toBe(true);
    for (const url of [
      'http://files.slack.com/files-pri/T1-F1/a.pdf',
      'http://files.slack.com:8080/files-pri/T1-F1/a.pdf',
      'https://files.slack.com:8443/files-pri/T1-F1/a.pdf',
      'https://files.slack.com.evil.example/a.pdf',
      'https://user:pass@files.slack.com/a.pdf',
      'https://evil.example/files.slack.com/a.pdf',
    ])
      expect(onSlackFileHost(new URL(url), slack), url).toBe(false);
    // The API's own origin (a stand-in for Slack, such as the in-repo fake) is Slack's.
    expect(onSlackFileHost(new URL(`${origin}/files/F1`), `${origin}/api/`)).toBe(true);

    // A redirect within Slack's origins is followed, with the token.
    expect((await downloadFile(api(), file('/moved'), 100)).length).toBe(7);
    // A redirect to another host is not followed: no token, no request, nothing kept.
    await expect(downloadFile(api(), file('/away'), 1000)).rejects.toThrow(
      `Slack's file host sent it on to ${elsewhereOrigin}, which is not Slack's; it was not read`,
    );
    expect(reachedElsewhere).toEqual([]);
  });
});
