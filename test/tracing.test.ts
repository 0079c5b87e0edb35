/**
 * OpenTelemetry (issue 16): with tracing on, one trace runs from the HTTP request that creates a
 * check, through the job that processes it and the provider call, to the webhook delivery of the
 * check's result, whose POST carries the trace on (`traceparent`). Spans go to an in-memory exporter
 * through the real Node SDK.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { tracing } from '@opentelemetry/sdk-node';
import { startTracing } from '../src/ops/tracing.ts';
import { eventually, getHarness } from './helpers/harness.ts';
import { type LiveServer, listen } from './helpers/live-server.ts';
import { type Receiver, startReceiver } from './helpers/receiver.ts';

const exporter = new tracing.InMemorySpanExporter();
let stop: (() => Promise<void>) | null = null;
let server: LiveServer;
let receiver: Receiver;

before(async () => {
  // started before the app is built: the HTTP hooks are installed only when tracing is on
  stop = await startTracing({ spanProcessors: [new tracing.SimpleSpanProcessor(exporter)] });
  server = await listen();
  receiver = await startReceiver();
});
after(async () => {
  await receiver?.stop();
  await server?.close();
  await stop?.();
});

async function call(method: string, url: string, key: string, body?: unknown, headers = {}) {
  const res = await fetch(`http://127.0.0.1:${server.port}${url}`, {
    method,
    headers: { 'x-service-api-key': key, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, never> };
}

test('one trace from the request through the job and the provider to the webhook delivery', async () => {
  const { ctx } = await getHarness();
  const { createWorkspace } = await import('../src/workspaces/repository.ts');
  const ws = await createWorkspace(ctx.db, `tracing-${Date.now()}`);
  const hook = await call('POST', '/v1/webhooks', ws.api_key, {
    name: 'trace',
    url: `http://127.0.0.1:${receiver.port}/trace`,
    events: ['Check.Approved', 'Check.ReviewNeeded'],
  });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  const kase = await call('POST', '/v1/cases', ws.api_key, {
    name: 'Traced',
    companies: [{ type: 'main', name: 'Traced Industries', country: 'FR' }],
  });
  assert.equal(kase.status, 201);
  const detail = await call('GET', `/v1/cases/${kase.body.id}`, ws.api_key);
  const companyId = (detail.body.companies as { id: string }[])[0].id;
  // the caller's own trace is continued
  const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
  const created = await call(
    'POST',
    '/v1/checks/online_reputation',
    ws.api_key,
    { company_id: companyId },
    { traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` },
  );
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const [delivery] = await receiver.waitFor((reqs) => reqs.some((r) => r.path === '/trace'), 60_000);
  const got = receiver.requests.find((r) => r.path === '/trace') ?? delivery;
  assert.match(String(got.headers.traceparent), new RegExp(`^00-${callerTrace}-[0-9a-f]{16}-01$`));

  // the delivery's span ends once the receiver's answer is back, just after the receiver saw the POST
  const spans = await eventually(async () => {
    const found = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === callerTrace);
    return found.some((s) => s.name === 'webhook delivery') && found;
  });
  const byName = (prefix: string) => spans.find((s) => s.name.startsWith(prefix));
  const http = byName('POST /v1/checks/online_reputation');
  const job = byName('job ');
  const provider = byName('provider online_reputation');
  const webhook = byName('webhook delivery');
  assert.ok(http, `HTTP span in ${spans.map((s) => s.name)}`);
  assert.ok(job, 'job span');
  assert.ok(provider, 'provider span');
  assert.ok(webhook, 'webhook delivery span');
  const parentOf = (s: typeof http) =>
    (s as unknown as { parentSpanContext?: { spanId: string } }).parentSpanContext?.spanId;
  assert.equal(parentOf(http), '00f067aa0ba902b7', 'the request continues the caller');
  assert.equal(parentOf(job), http.spanContext().spanId, 'the job is the request’s child');
  assert.equal(parentOf(provider), job.spanContext().spanId, 'the provider call is the job’s child');
  assert.equal(
    parentOf(webhook),
    job.spanContext().spanId,
    'the delivery continues the job that decided the check',
  );
  assert.equal(
    String(got.headers.traceparent).split('-')[2],
    webhook.spanContext().spanId,
    'the POST carries the delivery span',
  );
  assert.equal(webhook.attributes['http.response.status_code'], 200);
});
