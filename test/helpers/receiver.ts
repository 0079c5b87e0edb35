import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: any;
  at: number;
}

/** What the receiver does with the next requests. */
export type Mode =
  | { kind: 'ok'; status?: number; body?: string }
  | { kind: 'fail'; status?: number; body?: string }
  | { kind: 'hang' }
  | { kind: 'close' }
  | { kind: 'redirect'; location: string };

/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests: records every request (also failed ones)
 * and answers according to its mode. It can be stopped and started again on the same port.
 */
export class Receiver {
  readonly requests: Received[] = [];
  mode: Mode = { kind: 'ok' };
  port = 0;
  #server: http.Server | undefined;
  #sockets = new Set<import('node:net').Socket>();
  #waiters: (() => void)[] = [];
  /** Requests received in `hang` mode, still unanswered (answerHung answers them). */
  #hung: http.ServerResponse[] = [];

  async start(port = this.port): Promise<this> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown = null;
        try {
          json = JSON.parse(body);
        } catch {}
        this.requests.push({ path: req.url ?? '/', headers: req.headers, body, json, at: Date.now() });
        for (const w of this.#waiters.splice(0)) w();
        const mode = this.mode;
        switch (mode.kind) {
          case 'ok':
            res.writeHead(mode.status ?? 200, { 'content-type': 'text/plain' }).end(mode.body ?? 'ok');
            return;
          case 'fail':
            res.writeHead(mode.status ?? 500, { 'content-type': 'text/plain' }).end(mode.body ?? 'nope');
            return;
          case 'hang':
            this.#hung.push(res);
            return; // never answers, unless answerHung is called
          case 'close':
            req.socket.destroy();
            return;
          case 'redirect':
            res.writeHead(307, { location: mode.location }).end();
            return;
        }
      });
    });
    server.keepAliveTimeout = 60_000;
    server.on('connection', (s) => {
      this.#sockets.add(s);
      s.on('close', () => this.#sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.#server = server;
    return this;
  }

  /** Stops listening and drops every open connection (the service sees connection refused). */
  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (!server) return;
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Answers the requests that are hanging (received in `hang` mode) with `status`. */
  answerHung(status = 200): void {
    for (const res of this.#hung.splice(0))
      if (!res.writableEnded) res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Requests whose body parsed as JSON, optionally only to one path. */
  deliveries(path?: string): Received[] {
    return this.requests.filter((r) => r.json && (!path || r.path === path));
  }

  /** Waits until `predicate` holds over the recorded requests. */
  async waitFor(predicate: (reqs: Received[]) => boolean, timeoutMs = 15_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.requests)) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `receiver: condition not met within ${timeoutMs} ms (${this.requests.length} requests)`,
        );
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 100));
        this.#waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.requests;
  }
}

export async function startReceiver(): Promise<Receiver> {
  return new Receiver().start(0);
}
