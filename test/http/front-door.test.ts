import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { openFrontDoor } from '../../src/http/front-door.js';

describe('the HTTP port', () => {
  it('closes a connection that never finishes its headers, and one that never finishes its body, within seconds', async () => {
    const door = await openFrontDoor(0, '127.0.0.1');
    // The app behind it reads a request's whole body before answering, as Slack's receiver does.
    door.open((req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    try {
      const held = (request: string) =>
        new Promise<number>((resolve) => {
          const started = Date.now();
          const socket = connect(door.port, '127.0.0.1', () => socket.write(request));
          socket.on('data', () => {});
          socket.on('error', () => {});
          socket.on('close', () => resolve(Date.now() - started));
        });
      const [headers, body] = await Promise.all([
        // A slow client: half a header line, then nothing.
        held('POST /slack/events HTTP/1.1\r\nHost: x\r\nX-Slow: '),
        // Headers promising a body that never comes.
        held('POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"a":'),
      ]);
      // Node's defaults held them 60 s and 300 s; now 10 s and 15 s (checked every 2 s), generous for a busy machine.
      expect(headers).toBeLessThan(25_000);
      expect(body).toBeLessThan(25_000);
    } finally {
      await door.close();
    }
  }, 60_000);
});
