import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

export const APP_TOKEN = 'xapp-1-A1-test-token';

export type EnvelopeType = 'slash_commands' | 'events_api' | 'interactive';

export interface Ack {
  envelope_id: string;
  payload?: unknown;
  /** Milliseconds from sending the envelope to its ack. */
  ms: number;
}

/**
 * Slack's Socket Mode end on 127.0.0.1: `apps.connections.open` (served by
 * the fake Web API) hands out its URL; a connection gets `hello`, pings every
 * second as Slack does, envelopes in Slack's shape, and must ack each by
 * `envelope_id`. `drop()` cuts the socket without a close frame, as a network
 * failure would.
 */
export async function fakeSocketMode() {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const waiting = new Map<string, { sent: number; resolve: (ack: Ack) => void }>();
  const acks: Ack[] = [];
  const unknownAcks: unknown[] = [];
  let open: WebSocket | undefined;
  let tickets = 0;
  let connections = 0;
  let sequence = 0;
  const connected: (() => void)[] = [];

  server.on('connection', (socket, request) => {
    if (!request.url?.includes('ticket=')) {
      socket.close(1008, 'no ticket');
      return;
    }
    connections += 1;
    open = socket;
    const pinger = setInterval(() => socket.ping(Buffer.from('ping')), 1000);
    socket.on('close', () => {
      clearInterval(pinger);
      if (open === socket) open = undefined;
    });
    socket.on('message', (data) => {
      const ack = JSON.parse(String(data)) as { envelope_id?: string; payload?: unknown };
      const pending = ack.envelope_id ? waiting.get(ack.envelope_id) : undefined;
      if (!pending) {
        unknownAcks.push(ack);
        return;
      }
      waiting.delete(ack.envelope_id!);
      const done = { envelope_id: ack.envelope_id!, payload: ack.payload, ms: Date.now() - pending.sent };
      acks.push(done);
      pending.resolve(done);
    });
    socket.send(
      JSON.stringify({
        type: 'hello',
        num_connections: 1,
        debug_info: { host: 'applink-fake', approximate_connection_time: 18060 },
        connection_info: { app_id: 'A1' },
      }),
    );
    for (const notify of connected.splice(0)) notify();
  });

  async function socket(): Promise<WebSocket> {
    while (!open || open.readyState !== open.OPEN) await new Promise<void>((r) => connected.push(r));
    return open;
  }

  return {
    /** What apps.connections.open answers: a fresh ticket each time, like Slack's. */
    url: () => `ws://127.0.0.1:${port}/link/?ticket=${++tickets}&app_id=A1`,
    get connections() {
      return connections;
    },
    acks,
    unknownAcks,
    /** Sends an envelope once a client is connected; resolves with its ack. */
    async deliver(type: EnvelopeType, payload: object, options: { retryAttempt?: number } = {}) {
      const ws = await socket();
      const envelopeId = `env-${Date.now()}-${++sequence}`;
      const ack = new Promise<Ack>((resolve) => waiting.set(envelopeId, { sent: Date.now(), resolve }));
      ws.send(
        JSON.stringify({
          envelope_id: envelopeId,
          payload,
          type,
          accepts_response_payload: type !== 'events_api',
          retry_attempt: options.retryAttempt ?? 0,
          retry_reason: options.retryAttempt ? 'timeout' : '',
        }),
      );
      return ack;
    },
    /** Cuts the connection without a close handshake. */
    drop() {
      open?.terminate();
      open = undefined;
    },
    async close() {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeSocketMode = Awaited<ReturnType<typeof fakeSocketMode>>;
