/**
 * A real listening server (what `vericase serve` runs: `buildApp` then `app.listen`) on the test
 * database, and two clients for it: a node:http keep-alive agent, and a raw socket that writes
 * exactly what it is given (slowly if asked) and records what comes back and when the server closed.
 */
import http from 'node:http';
import net from 'node:net';
import type { App } from '../../src/app-context.ts';
import type { Config } from '../../src/config.ts';
import { buildApp } from '../../src/http/app.ts';
import { getHarness } from './harness.ts';

export interface LiveServer {
  app: App;
  port: number;
  close(): Promise<void>;
}

/** Builds the app the way `serve` does, with some HTTP timeouts overridden, and listens on loopback. */
export async function listen(httpTimeouts: Partial<Config['http']> = {}): Promise<LiveServer> {
  const { ctx } = await getHarness();
  const config = { ...ctx.config, http: { ...ctx.config.http, ...httpTimeouts } };
  const app = await buildApp({ ...ctx, config });
  const port = await listenOnLoopback(app, config);
  return { app, port, close: () => app.close() };
}

/**
 * Listens on a free loopback port and writes it into `config` (the app's own copy), as `serve`
 * knows its address: the links the app issues (src/shared/service-url.ts, read per request) then
 * lead back to it.
 */
export async function listenOnLoopback(app: App, config: Config): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as net.AddressInfo).port;
  Object.assign(config, { port, host: '127.0.0.1' });
  return port;
}

export interface AgentResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** The request went out on a socket an earlier request had used. */
  reusedSocket: boolean;
  ms: number;
}

/**
 * One request through `agent`. The response is what counts: an error writing the rest of a body
 * the server refused early (EPIPE, ECONNRESET after the response) is expected and ignored. Fails
 * when no complete response came within `timeoutMs`.
 */
export function agentRequest(
  agent: http.Agent,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Buffer,
  timeoutMs = 20_000,
): Promise<AgentResponse> {
  return new Promise((resolve, reject) => {
    const start = Date.now();
    let answered = false;
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          answered = true;
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          const json = String(res.headers['content-type'] ?? '').includes('json');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: json && text ? JSON.parse(text) : text,
            reusedSocket: req.reusedSocket,
            ms: Date.now() - start,
          });
        });
      },
    );
    const timer = setTimeout(() => {
      if (answered) return;
      reject(new Error(`${method} ${path}: no complete response within ${timeoutMs} ms`));
      req.destroy();
    }, timeoutMs);
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    req.end(body);
  });
}

export interface RawExchange {
  status: number;
  headers: Record<string, string>;
  body: any;
  /** ms from the first byte written until the server closed the connection (null: it did not). */
  closedAfterMs: number | null;
}

/** A response's status line and headers (the text before the blank line), header names lower-cased. */
export function parseResponseHead(head: string): { status: number; headers: Record<string, string> } {
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers };
}

/**
 * Writes `head` then each of `drip` with `dripMs` between them (stopping once the server answered
 * or closed), and waits up to `waitMs` for the server to answer and close the connection.
 */
export function rawExchange(
  port: number,
  head: Buffer | string,
  {
    drip = [],
    dripMs = 0,
    waitMs = 10_000,
  }: { drip?: (Buffer | string)[]; dripMs?: number; waitMs?: number } = {},
): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const start = Date.now();
    let closedAfterMs: number | null = null;
    let stopped = false;
    const finish = () => {
      stopped = true;
      clearTimeout(deadline);
      socket.destroy();
      const raw = Buffer.concat(chunks).toString('utf8');
      const split = raw.indexOf('\r\n\r\n');
      if (split < 0) {
        resolve({ status: 0, headers: {}, body: raw, closedAfterMs });
        return;
      }
      const { status, headers } = parseResponseHead(raw.slice(0, split));
      const text = raw.slice(split + 4);
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {}
      resolve({ status, headers, body, closedAfterMs });
    };
    const deadline = setTimeout(finish, waitMs);
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      stopped = true;
    });
    // the server ended its side: close ours too (what a client does once it has the response)
    socket.on('end', () => {
      closedAfterMs ??= Date.now() - start;
      finish();
    });
    socket.on('close', () => {
      closedAfterMs ??= Date.now() - start;
      finish();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // a reset after the server closed is how a refused upload can end; the bytes read count
      if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') reject(err);
    });
    socket.write(head);
    let i = 0;
    const next = () => {
      if (stopped || i >= drip.length || socket.destroyed) return;
      socket.write(drip[i++]);
      setTimeout(next, dripMs);
    };
    setTimeout(next, dripMs);
  });
}
