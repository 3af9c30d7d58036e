import http from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { PageFailureKind } from '../../ports/page-reader.js';
import { blockedAddress, isIpLiteral } from './address-policy.js';
import { guardedLookup, type Resolve } from './guarded-lookup.js';

export interface PageFetcherOptions {
  resolve: Resolve;
  allowPrivate: boolean;
  maxBytes: number;
  maxRedirects: number;
  /** Until the response headers arrive. */
  connectTimeoutMs: number;
  /** The longest silence while the body is being read. */
  readTimeoutMs: number;
  userAgent: string;
}

export interface FetchedPage {
  /** Where the content finally came from, after redirects. */
  url: string;
  status: number;
  contentType: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Thrown with a reason fit to show the model as it is: "refused: …", "timed out", "page too large". */
export class FetchFailure extends Error {
  constructor(
    message: string,
    readonly kind: PageFailureKind,
  ) {
    super(message);
  }
}

/**
 * HTTP(S) GET with the SSRF guard on every hop: literal addresses are checked
 * before connecting and names at connect time (through the guarded lookup),
 * redirects are followed by hand so each target is checked again.
 */
export class PageFetcher {
  private readonly agents: { http: http.Agent; https: https.Agent };
  private readonly lookup;

  constructor(private readonly options: PageFetcherOptions) {
    this.lookup = guardedLookup(options.resolve, options.allowPrivate);
    // Own agents: pooled sockets are never shared with code that has a different guard.
    this.agents = {
      http: new http.Agent({ keepAlive: true, maxSockets: 16 }),
      https: new https.Agent({ keepAlive: true, maxSockets: 16 }),
    };
  }

  async fetch(url: string, signal: AbortSignal): Promise<FetchedPage> {
    let target = parseTarget(url);
    for (let hop = 0; ; hop++) {
      await this.check(target);
      const response = await this.get(target, signal);
      if (response.location === undefined) return { ...response, url: target.href };
      if (hop >= this.options.maxRedirects) {
        throw new FetchFailure(`too many redirects (more than ${this.options.maxRedirects})`, 'unreachable');
      }
      target = parseTarget(response.location, target);
    }
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /**
   * Refuses a target before any connection is made, with a clear reason. The
   * guarded lookup checks names again at connect time, which is what stops a
   * name that changes its answer between the two (DNS rebinding).
   */
  private async check(target: URL): Promise<void> {
    if (this.options.allowPrivate) return;
    const host = target.hostname;
    if (isIpLiteral(host)) {
      const why = blockedAddress(host);
      if (why) throw new FetchFailure(`refused: ${why}`, 'refused');
      return;
    }
    let addresses: string[];
    try {
      addresses = await this.options.resolve(host);
    } catch {
      throw new FetchFailure(`${host} could not be resolved`, 'unreachable');
    }
    if (addresses.length > 0 && addresses.every((a) => blockedAddress(a))) {
      throw new FetchFailure(
        `refused: ${host} resolves to a non-public address (${blockedAddress(addresses[0]!)})`,
        'refused',
      );
    }
  }

  private get(target: URL, signal: AbortSignal): Promise<Omit<FetchedPage, 'url'> & { location?: string }> {
    const { maxBytes, connectTimeoutMs, readTimeoutMs, userAgent } = this.options;
    return new Promise((resolve, reject) => {
      const secure = target.protocol === 'https:';
      const request = (secure ? https : http).request(target, {
        method: 'GET',
        agent: secure ? this.agents.https : this.agents.http,
        lookup: this.lookup,
        signal,
        timeout: readTimeoutMs,
        headers: {
          'user-agent': userAgent,
          accept:
            'text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8,application/json;q=0.8,*/*;q=0.5',
          'accept-language': 'en;q=0.9,*;q=0.5',
          'accept-encoding': 'gzip, deflate, br',
        },
      });
      const fail = (error: unknown) => {
        clearTimeout(headersTimer);
        request.destroy();
        reject(signal.aborted ? new FetchFailure('timed out', 'timeout') : failure(error));
      };
      const headersTimer = setTimeout(
        () =>
          fail(
            new FetchFailure(
              `no response from ${target.host} within ${Math.round(connectTimeoutMs / 1000)} s`,
              'timeout',
            ),
          ),
        connectTimeoutMs,
      );
      request.on('timeout', () => fail(new FetchFailure('the server stopped sending data', 'timeout')));
      request.on('error', fail);
      request.on('response', (response) => {
        clearTimeout(headersTimer);
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        const contentType = String(response.headers['content-type'] ?? '');
        if (status >= 300 && status < 400 && location) {
          response.resume();
          resolve({ status, contentType, headers: response.headers, body: Buffer.alloc(0), location });
          return;
        }
        if (Number(response.headers['content-length']) > maxBytes) {
          fail(new FetchFailure(tooLarge(maxBytes), 'too_large'));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        const collect = async (source: AsyncIterable<Buffer>) => {
          for await (const chunk of source) {
            size += chunk.length;
            if (size > maxBytes) throw new FetchFailure(tooLarge(maxBytes), 'too_large');
            chunks.push(chunk);
          }
        };
        const decoder = decoderFor(response);
        (decoder ? pipeline(response, decoder, collect) : pipeline(response, collect)).then(
          () => resolve({ status, contentType, headers: response.headers, body: Buffer.concat(chunks) }),
          fail,
        );
      });
      request.end();
    });
  }
}

function parseTarget(url: string, base?: URL): URL {
  let target: URL;
  try {
    target = new URL(url, base);
  } catch {
    throw new FetchFailure('not a valid URL', 'refused');
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new FetchFailure(
      `refused: only http and https URLs can be read, not ${target.protocol}`,
      'refused',
    );
  }
  return target;
}

/** Sizes are capped after decompression, so a small gzip bomb cannot get past the limit. */
function decoderFor(
  response: http.IncomingMessage,
): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined {
  const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.createGunzip();
  if (encoding === 'deflate') return zlib.createInflate();
  if (encoding === 'br') return zlib.createBrotliDecompress();
  return undefined;
}

function tooLarge(maxBytes: number): string {
  return `page too large (over ${Math.round(maxBytes / 1_000_000)} MB)`;
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the server',
  ENOTFOUND: 'the host name could not be resolved',
  EAI_AGAIN: 'the host name could not be resolved',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'timed out',
  Z_DATA_ERROR: 'the server sent a corrupt compressed body',
};

function failure(error: unknown): FetchFailure {
  if (error instanceof FetchFailure) return error;
  const { code, message } = error as { code?: string; message?: string };
  if (code === 'ERR_BLOCKED_ADDRESS') return new FetchFailure(message ?? 'refused', 'refused');
  if (code && NETWORK_REASONS[code])
    return new FetchFailure(NETWORK_REASONS[code], code === 'ETIMEDOUT' ? 'timeout' : 'unreachable');
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT') {
    return new FetchFailure(`TLS certificate problem (${code})`, 'unreachable');
  }
  return new FetchFailure(message || 'the request failed', 'failed');
}
