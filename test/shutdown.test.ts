import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, test } from 'node:test';
import { HttpClient, newWorkspace, type ServerProcess, startServer, waitUntil } from '../drills/_lib.ts';
import { sampleCaseBody } from './helpers/harness.ts';
import { parseResponseHead } from './helpers/live-server.ts';
import { ownDatabaseEnv, startOwnServer } from './helpers/own-server.ts';

/**
 * `vericase serve` stopped by SIGTERM while a request is in flight on a kept-alive connection: the
 * request (its body sent after the signal) is answered, then the connection is closed and the
 * process exits 0 well within its 15 s deadline. Before, Node closed only the connections idle at the SIGTERM, so this one stayed open
 * until its keep-alive timeout (72 s) and the process exited 1 ("graceful shutdown timed out").
 */
const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** The JSON log records a server printed so far. */
function records(server: ServerProcess): Record<string, any>[] {
  return server
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

test('SIGTERM with a request in flight on a kept-alive connection: it is answered, the process exits 0', {
  timeout: 120_000,
}, async () => {
  const server = await startOwnServer('shutdown', { LOG_LEVEL: 'info' }, cleanups);
  const ws = await newWorkspace(server, 'shutdown');
  const url = new URL('/v1/cases', server.base);

  // one connection left idle and kept alive, another carrying a request whose body is half sent
  const idleAgent = new http.Agent({ keepAlive: true });
  const busyAgent = new http.Agent({ keepAlive: true });
  cleanups.push(() => idleAgent.destroy());
  cleanups.push(() => busyAgent.destroy());
  const ping = await fetchWith(idleAgent, new URL('/v1/ping', server.base), 'GET', ws.key);
  assert.equal(ping.status, 200);

  const body = Buffer.from(
    JSON.stringify({ external_id: 'in-flight-at-shutdown', name: 'In flight at shutdown' }),
  );
  const req = http.request(url, {
    method: 'POST',
    agent: busyAgent,
    headers: {
      'content-type': 'application/json',
      'content-length': String(body.length),
      'x-service-api-key': ws.key,
      // the server answers "100 Continue" once it has the request's headers: the request is in flight
      expect: '100-continue',
    },
  });
  const answer = responseOf(req);
  await new Promise<void>((resolve, reject) => {
    req.once('continue', resolve);
    req.once('error', reject);
    req.flushHeaders();
  });
  server.child.kill('SIGTERM');
  const stopping = await waitUntil(
    async () => records(server).some((r) => r.msg === 'shutting down'),
    30_000,
  );
  assert.ok(stopping, 'the server heard SIGTERM');
  req.end(body);

  const res = await answer;
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.external_id, 'in-flight-at-shutdown');
  const code = await server.exited;
  assert.equal(code, 0, server.output().slice(-4000));
  const done = records(server).find((r) => r.msg === 'shut down');
  assert.ok(done, 'the shutdown logs its steps');
  assert.deepEqual(done.running, []);
  const steps = done.done.map((s: { step: string }) => s.step);
  for (const step of ['http server', 'jobs', 'webhook delivery loop', 'database'])
    assert.ok(steps.includes(step), `step ${step} in ${steps.join(', ')}`);
  // the HTTP server closed once the answer was sent, not at a keep-alive timeout
  const httpStep = done.done.find((s: { step: string }) => s.step === 'http server');
  assert.ok(httpStep.ms < 4000, `the HTTP server closed in ${httpStep.ms} ms`);
});

test('SIGTERM, then a request pipelined behind one in flight: both answered, the connection closed after the second', {
  timeout: 120_000,
}, async () => {
  const server = await startOwnServer('shutdown-pipelined', { LOG_LEVEL: 'info' }, cleanups);
  const ws = await newWorkspace(server, 'shutdown pipelined');
  const body = JSON.stringify({ external_id: 'pipelined-at-shutdown', name: 'Pipelined at shutdown' });
  const socket = net.connect(server.port, '127.0.0.1');
  cleanups.push(() => void socket.destroy());
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (d: string) => {
    received += d;
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const head = (method: string, url: string, extra: string[]) =>
    [`${method} ${url} HTTP/1.1`, 'host: 127.0.0.1', `x-service-api-key: ${ws.key}`, ...extra, '', ''].join(
      '\r\n',
    );
  socket.write(
    head('POST', '/v1/cases', [
      'content-type: application/json',
      `content-length: ${Buffer.byteLength(body)}`,
      'expect: 100-continue',
    ]),
  );
  assert.ok(
    await waitUntil(async () => received.startsWith('HTTP/1.1 100 Continue'), 30_000),
    'the server holds the first request',
  );
  server.child.kill('SIGTERM');
  assert.ok(
    await waitUntil(async () => records(server).some((r) => r.msg === 'shutting down'), 30_000),
    'the server heard SIGTERM',
  );
  // the first request's body, and the second request right behind it on the same connection
  socket.write(body + head('GET', '/v1/ping', []));
  await closed;

  const responses = parseResponses(received.slice(received.indexOf('\r\n\r\n') + 4));
  assert.equal(responses.length, 2, received);
  const [created, ping] = responses as [ParsedResponse, ParsedResponse];
  assert.equal(created.status, 201, created.body);
  assert.equal(JSON.parse(created.body).external_id, 'pipelined-at-shutdown');
  // the second was served, not refused, and its connection ends with it
  assert.equal(ping.status, 200, ping.body);
  assert.deepEqual(JSON.parse(ping.body), { workspace_name: 'shutdown pipelined' });
  assert.equal(ping.headers.connection, 'close');
  assert.equal(await server.exited, 0, server.output().slice(-4000));
});

interface ParsedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Consecutive HTTP/1.1 responses with a content-length each, as one connection received them. */
function parseResponses(raw: string): ParsedResponse[] {
  const out: ParsedResponse[] = [];
  let rest = raw;
  while (rest.length) {
    const end = rest.indexOf('\r\n\r\n');
    assert.ok(end > 0, `a response head in ${JSON.stringify(rest.slice(0, 200))}`);
    const { status, headers } = parseResponseHead(rest.slice(0, end));
    const length = Number(headers['content-length']);
    assert.ok(Number.isInteger(length), `content-length in the response ${status}`);
    const bodyBytes = Buffer.from(rest.slice(end + 4), 'latin1').subarray(0, length);
    out.push({ status, headers, body: bodyBytes.toString('utf8') });
    rest = rest.slice(end + 4 + bodyBytes.toString('latin1').length);
  }
  return out;
}

function responseOf(req: http.ClientRequest) {
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null });
      });
    });
  });
}

function fetchWith(agent: http.Agent, url: URL, method: string, key: string) {
  const req = http.request(url, { method, agent, headers: { 'x-service-api-key': key } });
  const res = responseOf(req);
  req.end();
  return res;
}

test('SIGTERM while creates whose clients went away still run: the process exits 0, every stored graph is whole', {
  timeout: 120_000,
}, async () => {
  const env = { ...(await ownDatabaseEnv('shutdown-abandoned', cleanups)), LOG_LEVEL: 'info' };
  const server = await startServer({ env });
  cleanups.push(() => server.kill9());
  const ws = await newWorkspace(server, 'shutdown abandoned');
  // creates sent whole, queued on the database behind one another; then the stop, and their clients
  // leave at once. The HTTP server closes at once (no connection left) while handlers still run
  // without a client (Node does not stop a handler whose socket closed), and the database closes
  // under the last of them: on the embedded database one of them beginning its transaction then
  // hung and stopped the process with an unhandled rejection (test/pglite-close.test.ts). Those that
  // lose the race fail; what they stored is whole or nothing.
  const REQUESTS = 150;
  const sent = await Promise.all(
    Array.from({ length: REQUESTS }, (_, i) => {
      const body = JSON.stringify(sampleCaseBody(`abandoned-${i}`));
      const head = [
        'POST /v1/cases HTTP/1.1',
        'host: 127.0.0.1',
        `x-service-api-key: ${ws.key}`,
        'content-type: application/json',
        `content-length: ${Buffer.byteLength(body)}`,
        '',
        '',
      ].join('\r\n');
      return new Promise<net.Socket>((resolve, reject) => {
        const socket = net.connect(server.port, '127.0.0.1', () =>
          socket.write(head + body, () => resolve(socket)),
        );
        socket.once('error', reject);
      });
    }),
  );
  // the server reads the requests and starts their handlers (a moment for it; the outcome below holds
  // however far it got)
  await new Promise((r) => setTimeout(r, 300));
  server.child.kill('SIGTERM');
  for (const socket of sent) socket.destroy();
  const code = await server.exited;
  assert.equal(code, 0, server.output().slice(-4000));
  assert.ok(
    records(server).some((r) => r.msg === 'shut down'),
    server.output().slice(-4000),
  );

  // started again on the same database: every case the abandoned requests made is whole
  const again = await startServer({ env });
  cleanups.push(() => again.kill9());
  const client = new HttpClient(again.base, { 'x-service-api-key': ws.key });
  const stored: { id: string; external_id: string }[] = [];
  for (let page = 1; ; page++) {
    const list = await client.get(`/v1/cases?limit=100&page=${page}`);
    assert.equal(list.status, 200, JSON.stringify(list.body));
    stored.push(...list.body.data);
    if (list.body.data.length < 100) break;
  }
  for (const c of stored) {
    const one = await client.get(`/v1/cases/${c.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.companies.length, sampleCaseBody().companies.length, c.external_id);
    assert.equal(one.body.individuals.length, sampleCaseBody().individuals.length, c.external_id);
  }
  again.child.kill('SIGTERM');
  assert.equal(await again.exited, 0, again.output().slice(-4000));
});
