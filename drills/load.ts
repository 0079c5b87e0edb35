/**
 * `npm run drill -- load [--clients 50] [--seconds 60] [--mixed-seconds 60] [--warmup-seconds 30]
 *  [--without-webhook] [--database URL --reset]`
 *
 * Phase 1: `clients` concurrent clients creating case graphs (companies, individuals, relations,
 * template checks whose jobs run, a webhook receiving every event) for `seconds`.
 * Phase 2: the same clients on a mix of reads and writes for `mixed-seconds`.
 * Promises: no error (every answer 2xx), `/healthz` answers 200 within its timeout throughout,
 * and the server's RSS at the end is within 20% of its RSS after the warm-up (the first
 * `warmup-seconds` of phase 1, followed by `mixed-warmup-seconds` of the phase-2 mix, not measured:
 * heap sizing, JIT of both request mixes and the database's buffer cache filling up are not leaks).
 * p99 is reported, with the RSS every 10 s so that growth can be read as a curve.
 */
import { parseArgs } from 'node:util';
import { caseGraph, createDrillTemplate } from './_graphs.ts';
import {
  drillDatabase,
  HttpClient,
  mb,
  ms,
  newWorkspace,
  printTable,
  Receiver,
  Recorder,
  type Reply,
  redact,
  runClients,
  type ServerProcess,
  sleep,
  startServer,
  summarize,
  Verdicts,
  watchHealth,
  watchRss,
} from './_lib.ts';

/** One operation of the mixed phase and its weight. */
type Op = (api: HttpClient, ids: string[], n: number) => Promise<Reply>;

const pick = <T>(list: T[], n: number) => list[n % list.length] as T;

const MIX: [number, string, Op][] = [
  [30, 'GET /v1/cases/{id}', (api, ids, n) => api.get(`/v1/cases/${pick(ids, n)}`)],
  [
    15,
    'GET /v1/cases',
    (api, _ids, n) => api.get(`/v1/cases?limit=20&page=${1 + (n % 5)}&sort=created_at.desc`),
  ],
  [
    15,
    'PATCH /v1/cases/{id}',
    (api, ids, n) => api.patch(`/v1/cases/${pick(ids, n)}`, { name: `Renamed ${n}` }),
  ],
  [
    15,
    'POST /v1/cases',
    (api, _ids, n) => api.post('/v1/cases', caseGraph(`mixed-${n}-${Math.random()}`, n).body),
  ],
  [
    10,
    'POST /v1/notes',
    (api, ids, n) => api.post('/v1/notes', { case_id: pick(ids, n), content: `<p>Note ${n}</p>` }),
  ],
  [5, 'GET /v1/cases/{id}/notes', (api, ids, n) => api.get(`/v1/cases/${pick(ids, n)}/notes`)],
  [5, 'GET /v1/webhook-logs', (api) => api.get('/v1/webhook-logs?limit=20')],
  [5, 'GET /v1/templates', (api) => api.get('/v1/templates')],
];
const TOTAL_WEIGHT = MIX.reduce((s, [w]) => s + w, 0);

function mixedOp(r: number): [string, Op] {
  let x = r * TOTAL_WEIGHT;
  for (const [w, label, op] of MIX) {
    if (x < w) return [label, op];
    x -= w;
  }
  const last = MIX[MIX.length - 1] as [number, string, Op];
  return [last[1], last[2]];
}

export async function run(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      clients: { type: 'string', default: '50' },
      seconds: { type: 'string', default: '60' },
      'mixed-seconds': { type: 'string', default: '60' },
      'warmup-seconds': { type: 'string', default: '30' },
      'mixed-warmup-seconds': { type: 'string', default: '10' },
      database: { type: 'string' },
      reset: { type: 'boolean', default: false },
      // isolates the webhook dispatcher's share of CPU and memory from the API's
      'without-webhook': { type: 'boolean', default: false },
    },
  });
  const clients = Number(values.clients);
  const createMs = Number(values.seconds) * 1000;
  const mixedMs = Number(values['mixed-seconds']) * 1000;
  const warmupMs = Math.min(Number(values['warmup-seconds']) * 1000, createMs);
  const db = await drillDatabase({ database: values.database, reset: values.reset });
  const receiver = await new Receiver().start(0);
  process.stdout.write(
    `load drill on ${db.kind === 'pglite' ? `PGlite (${db.dataDir})` : `PostgreSQL (${redact(db.databaseUrl ?? '')})`}: ` +
      `${clients} clients, ${createMs / 1000} s of case creation then ${mixedMs / 1000} s mixed\n`,
  );
  let server: ServerProcess | undefined;
  try {
    server = await startServer({ env: db.env, timeoutMs: 120_000 });
    const createRec = new Recorder();
    const mixedRec = new Recorder();
    const ws = await newWorkspace(server, 'load drill');
    await createDrillTemplate(ws.client);
    if (!values['without-webhook']) {
      const hook = await ws.client.post('/v1/webhooks', {
        name: 'drill',
        url: receiver.url('/hook'),
        events: ['*'],
      });
      if (hook.status !== 201) throw new Error(`POST /v1/webhooks: ${hook.status}`);
    }
    // a generous client timeout: a slow answer is measured in p99, only no answer is an error
    const createApi = new HttpClient(server.base, ws.client.headers, createRec, 60_000);
    const mixedApi = new HttpClient(server.base, ws.client.headers, mixedRec, 60_000);
    const errors: string[] = [];
    const drillStart = Date.now();
    const note = (label: string, res: Reply) => {
      if (res.status >= 200 && res.status < 300) return;
      if (errors.length < 20)
        errors.push(
          `${label} at ${((Date.now() - drillStart) / 1000).toFixed(1)} s (took ${ms(res.ms)}): ${res.status || res.error} ${JSON.stringify(res.body)?.slice(0, 200)}`,
        );
      else errors.push('');
    };
    const health = watchHealth(server.base, 1000, 10_000);
    const rss = watchRss(server, 1000);

    // ---- phase 1: case creation
    const ids: string[] = [];
    const started = Date.now();
    let rssAfterWarmup: number | null = null;
    const mixedWarmupMs = Number(values['mixed-warmup-seconds']) * 1000;
    const warmup = (async () => {
      await sleep(warmupMs);
      // the read/write mix's code paths warm up too before the baseline is taken; its requests
      // are not measured (a separate recorder) but count as errors if they fail
      if (mixedWarmupMs > 0 && ids.length && server) {
        const warmApi = new HttpClient(server.base, ws.client.headers, new Recorder(), 60_000);
        const warmStarted = Date.now();
        await runClients(
          Math.max(1, Math.floor(clients / 5)),
          () => Date.now() - warmStarted > mixedWarmupMs,
          async (c, i) => {
            const [label, op] = mixedOp(Math.random());
            note(`warm-up ${label}`, await op(warmApi, ids, c * 7919 + i));
          },
        );
      }
      rssAfterWarmup = server?.rss() ?? null;
    })();
    await runClients(
      clients,
      () => Date.now() - started > createMs,
      async (c, i) => {
        const res = await createApi.post(
          '/v1/cases',
          caseGraph(`load-${c}-${i}`, c + i).body,
          'POST /v1/cases',
        );
        note('POST /v1/cases', res);
        if (res.status === 201) ids.push(res.body.id);
      },
    );
    await warmup;
    const createSeconds = (Date.now() - started) / 1000;
    const rssAfterCreate = server.rss();

    // ---- phase 2: mixed reads and writes over the cases created
    const mixedStarted = Date.now();
    if (ids.length) {
      await runClients(
        clients,
        () => Date.now() - mixedStarted > mixedMs,
        async (c, i) => {
          const [label, op] = mixedOp(Math.random());
          const res = await op(mixedApi, ids, c * 7919 + i);
          note(label, res);
        },
      );
    }
    const mixedSeconds = (Date.now() - mixedStarted) / 1000;
    const rssEnd = server.rss();
    const probes = await health.stop();
    const rssSamples = rss.stop();
    await server.stop();

    const createLat = summarize(createRec.all());
    const mixedLat = summarize(mixedRec.all());
    const perLabel = [...mixedRec.samples.entries()].map(([label, values]) => {
      const s = summarize(values);
      return { request: label, count: s.count, p50: ms(s.p50), p99: ms(s.p99), max: ms(s.max) };
    });
    const createTotal = createRec.all().length;
    const mixedTotal = mixedRec.all().length;
    const failedProbes = probes.filter((p) => !p.ok);
    const healthLat = summarize(probes.map((p) => p.ms));
    const peak = rssSamples.reduce((m, s) => Math.max(m, s.rss), 0);
    printTable('figures', [
      { figure: 'database', value: db.kind },
      { figure: 'clients', value: clients },
      {
        figure: 'phase 1: case creations',
        value: `${createTotal} in ${createSeconds.toFixed(1)} s (${(createTotal / createSeconds).toFixed(1)}/s)`,
      },
      {
        figure: 'phase 1: POST /v1/cases p50 / p99 / max',
        value: `${ms(createLat.p50)} / ${ms(createLat.p99)} / ${ms(createLat.max)}`,
      },
      {
        figure: 'phase 2: mixed requests',
        value: `${mixedTotal} in ${mixedSeconds.toFixed(1)} s (${(mixedTotal / mixedSeconds).toFixed(1)}/s)`,
      },
      {
        figure: 'phase 2: all requests p50 / p99 / max',
        value: `${ms(mixedLat.p50)} / ${ms(mixedLat.p99)} / ${ms(mixedLat.max)}`,
      },
      { figure: 'errors (non-2xx or no answer)', value: errors.length },
      { figure: '/healthz probes (failed)', value: `${probes.length} (${failedProbes.length})` },
      { figure: '/healthz p99 / max', value: `${ms(healthLat.p99)} / ${ms(healthLat.max)}` },
      { figure: 'RSS after warm-up', value: mb(rssAfterWarmup) },
      { figure: 'RSS after phase 1', value: mb(rssAfterCreate) },
      { figure: 'RSS at the end', value: mb(rssEnd) },
      { figure: 'RSS peak', value: mb(peak) },
      { figure: 'webhook requests received', value: receiver.requests.length },
    ]);
    printTable('phase 2 by request', perLabel);
    const t0 = rssSamples[0]?.at ?? 0;
    const timeline = rssSamples
      .filter((_, i) => i % 10 === 0)
      .map((x) => `${Math.round((x.at - t0) / 1000)}s:${mb(x.rss)}`);
    process.stdout.write(`\nRSS every 10 s: ${timeline.join(' ')}\n`);
    if (errors.length) {
      process.stdout.write(`\nfirst errors:\n${errors.filter(Boolean).join('\n')}\n`);
      // the server's own warnings and errors (LOG_LEVEL=warn) say what happened on its side
      process.stdout.write(`\nserver output (tail):\n${server.output().slice(-4000)}\n`);
    }
    const v = new Verdicts();
    v.check('cases were created', ids.length > 0, ids.length);
    v.check('0 errors', errors.length === 0, errors.length);
    v.check(
      '/healthz answered 200 throughout (10 s budget)',
      failedProbes.length === 0 && probes.length > 0,
      `${failedProbes.length} of ${probes.length} failed`,
    );
    const growth = rssAfterWarmup && rssEnd ? rssEnd / rssAfterWarmup - 1 : Number.NaN;
    v.check(
      'RSS at the end within 20% of after warm-up',
      Number.isFinite(growth) && growth <= 0.2,
      `${mb(rssAfterWarmup)} → ${mb(rssEnd)} (${(growth * 100).toFixed(1)}%)`,
    );
    return v.finish();
  } finally {
    await server?.kill9();
    await receiver.stop();
    db.cleanup();
  }
}
