import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackApi } from '../../src/slack/slack-api.js';
import { downloadFile, type SlackFile } from '../../src/slack/slack-files.js';

let origin = '';
const seen: (string | undefined)[] = [];
const server = createServer((req, res) => {
  seen.push(req.headers.authorization);
  if (req.url?.startsWith('/signin')) res.end('<!DOCTYPE html><html>Sign in</html>');
  else res.end(Buffer.alloc(Number(new URL(req.url!, origin).searchParams.get('bytes') ?? 10), 'a'));
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

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
      "the file is not on Slack's file host (127.0.0.2)",
    );
    expect(seen.length).toBe(before);
  });
});
