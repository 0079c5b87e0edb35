/**
 * `npm run drill -- webhook-outage [--outage-seconds 60] [--slow-seconds 30] [--rate 4]
 *  [--database postgres://...] [--reset]`
 *
 * A real `vericase serve` process delivers webhooks to three receivers on 127.0.0.1 while clients
 * keep creating cases, checks and case updates in two workspaces:
 *   - `outage` (workspace W, every event): stopped for the outage (connection refused), then back;
 *   - `steady` (workspace W, every event): always up, answers at once;
 *   - `slow` (workspace S, every event): answers after `--slow-seconds` (beyond the 10 s delivery
 *     timeout) from the start of the outage on, so every attempt to it holds a request slot; S
 *     creates twice as many cases as W, enough to fill its workspace's share of slots.
 * Phases: baseline (all fast), outage (+ slow), recovery (load goes on, then stops), drain. It then
 * checks the documented promises and exits 1 when one is broken: every event delivered at least
 * once to `outage` after the outage, all signatures valid, retries visible in GET /v1/webhook-logs,
 * the newest `updated_at` giving each case's final state, delivery within one retry interval after
 * recovery, and neither the API nor the `steady` receiver slowed down by the slow one.
 * Retries run on the drill's time scale (VERICASE_WEBHOOK_RETRY_BASE_MS / _MAX_MS scaled to the
 * outage so the retry window outlasts it); everything else is the service's default.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import {
  drillDatabase,
  type HttpClient,
  newWorkspace,
  printTable,
  redact,
  type ServerProcess,
  sleep,
  startServer,
  summarize,
  Verdicts,
  waitUntil,
} from './_lib.ts';

interface Options {
  outageSeconds: number;
  slowSeconds: number;
  rate: number;
  database?: string;
  reset: boolean;
}

const USAGE = `Usage: npm run drill -- webhook-outage [options]
  --outage-seconds N  how long the receiver is down (default 20; the documented run uses 60)
  --slow-seconds N    how long the slow receiver takes to answer (default 30)
  --rate N            client iterations per second in the main workspace (default 4)
  --database URL      run on PostgreSQL (default: DATABASE_URL, else the embedded database)
  --reset             empty that PostgreSQL database first (drop every schema)
`;

function parseArgs(args: string[]): Options | string {
  const o: Options = { outageSeconds: 20, slowSeconds: 30, rate: 4, reset: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    const positive = (v: string) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n <= 0) throw new Error(`${a} must be a positive number`);
      return n;
    };
    try {
      if (a === '--outage-seconds') o.outageSeconds = positive(value());
      else if (a === '--slow-seconds') o.slowSeconds = positive(value());
      else if (a === '--rate') o.rate = positive(value());
      else if (a === '--database') o.database = value();
      else if (a === '--reset') o.reset = true;
      else return `Unknown option ${a}\n${USAGE}`;
    } catch (err) {
      return `${(err as Error).message}\n${USAGE}`;
    }
  }
  return o;
}

// ---------------------------------------------------------------------------------------------
// Receivers

/** The parts of a webhook body the drill reads. */
interface WebhookBody {
  event?: string;
  sub_event?: string;
  context?: { event_id?: string; retry_count?: number };
  case?: { id: string; name: string; updated_at: string };
}

interface Arrival {
  at: number;
  webhookId: string;
  eventId: string;
  event: string;
  retryCount: number;
  /** The case as the event carries it (Case.* events), if any. */
  kase: { id: string; name: string; updated_at: string } | null;
  signatureValid: boolean;
}

/**
 * A webhook endpoint on 127.0.0.1 that verifies each request's Standard Webhooks signature as it
 * arrives (the library refuses timestamps older than 5 minutes, so it cannot be done afterwards)
 * and answers 200 after `delayMs`. `stop()` closes it and drops open connections (the service
 * sees connection refused); `start()` again reopens the same port.
 */
class SigningReceiver {
  readonly name: string;
  readonly arrivals: Arrival[] = [];
  /** Requests whose body was not a webhook (should stay 0). */
  malformed = 0;
  delayMs = 0;
  secret = '';
  /** Requests open at once (received, not yet answered or dropped), and the most seen. */
  open = 0;
  maxOpen = 0;
  port = 0;
  #server: http.Server | undefined;
  readonly #sockets = new Set<import('node:net').Socket>();
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor(name: string) {
    this.name = name;
  }

  async start(): Promise<void> {
    const server = http.createServer((req, res) => {
      this.open++;
      this.maxOpen = Math.max(this.maxOpen, this.open);
      res.once('close', () => this.open--);
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.#record(req.headers, body);
        const answer = () => {
          if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        };
        if (!this.delayMs) return answer();
        const t = setTimeout(() => {
          this.#timers.delete(t);
          answer();
        }, this.delayMs);
        this.#timers.add(t);
      });
    });
    server.keepAliveTimeout = 60_000;
    server.on('connection', (s) => {
      this.#sockets.add(s);
      s.on('close', () => this.#sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.#server = server;
  }

  async stop(): Promise<void> {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    const server = this.#server;
    this.#server = undefined;
    if (!server) return;
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get up(): boolean {
    return this.#server !== undefined;
  }

  url(): string {
    return `http://127.0.0.1:${this.port}/hooks/${this.name}`;
  }

  eventIds(): Set<string> {
    return new Set(this.arrivals.map((a) => a.eventId));
  }

  #record(headers: http.IncomingHttpHeaders, body: string): void {
    let json: WebhookBody;
    try {
      json = JSON.parse(body);
    } catch {
      this.malformed++;
      return;
    }
    let signatureValid = false;
    try {
      new Webhook(this.secret).verify(body, {
        'webhook-id': String(headers['webhook-id']),
        'webhook-timestamp': String(headers['webhook-timestamp']),
        'webhook-signature': String(headers['webhook-signature']),
      });
      signatureValid = true;
    } catch {
      // counted below
    }
    this.arrivals.push({
      at: Date.now(),
      webhookId: String(headers['webhook-id']),
      eventId: String(json?.context?.event_id),
      event: String(json?.sub_event ?? json?.event),
      retryCount: Number(json?.context?.retry_count),
      kase: json?.case ?? null,
      signatureValid,
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Load

type Phase = 'warmup' | 'baseline' | 'outage' | 'recovery';

interface CaseTrack {
  id: string;
  /** When the client sent the POST that created it (an upper bound of commit → delivery). */
  postedAt: number;
  phase: Phase;
  finalName: string;
}

/** What the clients did and how long the API took, per phase. */
class Load {
  phase: Phase = 'warmup';
  running = true;
  readonly latencies: Record<Phase, number[]> = { warmup: [], baseline: [], outage: [], recovery: [] };
  readonly failures: string[] = [];
  readonly cases: CaseTrack[] = [];
  checks = 0;
  updates = 0;

  async call(client: HttpClient, method: string, url: string, body?: unknown) {
    const phase = this.phase;
    const res = await client.request(method, url, body);
    this.latencies[phase].push(res.ms);
    if (res.status < 200 || res.status >= 300)
      this.failures.push(`${method} ${url}: ${res.status} ${res.error ?? JSON.stringify(res.body)}`);
    return res;
  }

  /** One iteration in the main workspace: a case with a person, an eKYC check, two renames. */
  async iteration(client: HttpClient, n: string): Promise<void> {
    const phase = this.phase;
    const postedAt = Date.now();
    const created = await this.call(client, 'POST', '/v1/cases', {
      name: `Outage ${n}`,
      companies: [{ name: `Company ${n}`, country: 'FR' }],
      individuals: [
        {
          first_name: 'Marie',
          last_name: 'Curie',
          birth_date: '1967-11-07',
          address: { country: 'FR' },
          relations: [{ roles: ['legal_representative'] }],
        },
      ],
    });
    if (created.status !== 201) return;
    const track: CaseTrack = { id: created.body.id, postedAt, phase, finalName: `Outage ${n}` };
    this.cases.push(track);
    const check = await this.call(client, 'POST', '/v1/checks/ekyc', {
      individual_id: created.body.individuals[0].id,
    });
    if (check.status === 201) this.checks++;
    for (const k of [1, 2]) {
      const name = `Outage ${n} v${k}`;
      const res = await this.call(client, 'PATCH', `/v1/cases/${track.id}`, { name });
      if (res.status === 200) {
        track.finalName = name;
        this.updates++;
      }
    }
  }

  /** `loops` clients, each doing `perSecond / loops` iterations a second until stopped. */
  run(loops: number, perSecond: number, step: (n: string) => Promise<void>): Promise<void> {
    const interval = (1000 * loops) / perSecond;
    return Promise.all(
      Array.from({ length: loops }, async (_, c) => {
        for (let i = 0; this.running; i++) {
          const started = Date.now();
          await step(`${c}-${i}`);
          await sleep(Math.max(0, interval - (Date.now() - started)));
        }
      }),
    ).then(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  const opts = parseArgs(args);
  if (typeof opts === 'string') {
    process.stderr.write(opts);
    return 2;
  }
  const outageMs = opts.outageSeconds * 1000;
  // the retry schedule scaled so that the retry window (~2x the outage) outlasts the outage and
  // a recovered endpoint waits at most one capped retry interval (+20 % jitter)
  const retryBaseMs = Math.max(200, Math.round(outageMs / 30));
  const retryMaxMs = Math.max(2000, Math.round(outageMs / 3));
  const timeoutMs = 10_000; // the documented delivery timeout (not overridden)
  const warmupMs = 4000;
  const baselineMs = 8000;
  const tailMs = 5000;
  const drainBudgetMs = retryMaxMs * 1.2 + 60_000;

  const database = await drillDatabase({ database: opts.database, reset: opts.reset });
  const outage = new SigningReceiver('outage');
  const steady = new SigningReceiver('steady');
  const slow = new SigningReceiver('slow');
  let server: ServerProcess | undefined;
  const load = new Load();
  try {
    for (const r of [outage, steady, slow]) await r.start();
    process.stdout.write(
      `webhook-outage drill on ${database.kind}${database.databaseUrl ? ` (${redact(database.databaseUrl)})` : ''}: ` +
        `outage ${opts.outageSeconds} s, slow receiver ${opts.slowSeconds} s, retry base ${retryBaseMs} ms, ` +
        `retry max ${retryMaxMs} ms, timeout ${timeoutMs} ms\n`,
    );
    server = await startServer({
      env: {
        ...database.env,
        VERICASE_WEBHOOK_RETRY_BASE_MS: String(retryBaseMs),
        VERICASE_WEBHOOK_RETRY_MAX_MS: String(retryMaxMs),
      },
      timeoutMs: 120_000,
    });
    const w = await newWorkspace(server, 'drill-main');
    const s = await newWorkspace(server, 'drill-slow');
    const hook = async (client: HttpClient, r: SigningReceiver) => {
      const res = await client.post('/v1/webhooks', { name: r.name, url: r.url(), events: ['*'] });
      if (res.status !== 201) throw new Error(`POST /v1/webhooks: ${res.status} ${JSON.stringify(res.body)}`);
      r.secret = res.body.secret;
      return res.body.id as string;
    };
    const outageHook = await hook(w.client, outage);
    const steadyHook = await hook(w.client, steady);
    const slowHook = await hook(s.client, slow);

    // the clients: the main workspace (two loops) and the slow receiver's workspace (one loop)
    const probe = async () => {
      while (load.running) {
        await load.call(w.client, 'GET', '/v1/cases?limit=5');
        await sleep(100);
      }
    };
    const slowLoad = async (n: string) => {
      await load.call(s.client, 'POST', '/v1/cases', { name: `Slow ${n}`, status: 'draft' });
    };
    const running = Promise.all([
      load.run(2, opts.rate, (n) => load.iteration(w.client, n)),
      // fast enough that the slow receiver's requests (held 10 s each) reach its workspace's cap
      load.run(2, Math.max(1, opts.rate * 2), slowLoad),
      probe(),
    ]);

    // the first seconds (cold caches, first queries planned) are not the baseline
    await sleep(warmupMs);
    load.phase = 'baseline';
    await sleep(baselineMs);
    load.phase = 'outage';
    slow.delayMs = opts.slowSeconds * 1000;
    await outage.stop();
    const outageStartedAt = Date.now();
    process.stdout.write(
      `outage: receiver down for ${opts.outageSeconds} s, slow receiver answering in ${opts.slowSeconds} s\n`,
    );
    await sleep(outageMs);
    await outage.start();
    const recoveredAt = Date.now();
    load.phase = 'recovery';
    process.stdout.write('recovery: receiver back up\n');
    await sleep(tailMs);
    load.running = false;
    await running;
    const loadEndedAt = Date.now();

    // every event the steady receiver got must reach the recovered one, and every log settle
    const expected = steady.eventIds();
    const logsOf = async (webhookId: string, status?: string) => {
      const q = `/v1/webhook-logs?webhook_id=${webhookId}&limit=1${status ? `&status=${status}` : ''}`;
      const res = await w.client.get(q);
      return res.status === 200 ? (res.body.pagination.count as number) : -1;
    };
    const drained = await waitUntil(
      async () => {
        const got = outage.eventIds();
        for (const id of expected) if (!got.has(id)) return false;
        const [all, delivered] = await Promise.all([logsOf(outageHook), logsOf(outageHook, 'delivered')]);
        return all === delivered && all >= expected.size;
      },
      drainBudgetMs,
      250,
    );
    const drainedAt = Date.now();
    // a short run can end before the first request to the slow receiver timed out: wait for one
    const slowPhase = `webhook_id=${slowHook}&limit=50&sort=created_at&created_at.gt=${new Date(outageStartedAt + 1000).toISOString()}`;
    const slowAttemptsOf = async () => {
      const res = await s.client.get(`/v1/webhook-logs?${slowPhase}`);
      if (res.status !== 200)
        process.stdout.write(
          `GET /v1/webhook-logs (slow): ${res.status} ${res.error ?? JSON.stringify(res.body)}\n`,
        );
      return res.status === 200
        ? (res.body.data.flatMap((l: { attempts: unknown[] }) => l.attempts) as {
            error: string | null;
            duration_ms: number;
          }[])
        : [];
    };
    await waitUntil(
      async () => (await slowAttemptsOf()).some((a) => /timed out/.test(a.error ?? '')),
      timeoutMs + 10_000,
      500,
    );

    // ---- figures
    const caseIds = new Set(load.cases.map((c) => c.id));
    const createdAt = (r: SigningReceiver) =>
      new Set(r.arrivals.filter((a) => a.event === 'Case.Created').map((a) => a.kase?.id as string));
    const outageCreated = createdAt(outage);
    const steadyCreated = createdAt(steady);
    const missingAtOutage = [...expected].filter((id) => !outage.eventIds().has(id));
    const missingCases = [...caseIds].filter((id) => !outageCreated.has(id) || !steadyCreated.has(id));
    const [outageLogs, outageDelivered, steadyLogs] = await Promise.all([
      logsOf(outageHook),
      logsOf(outageHook, 'delivered'),
      logsOf(steadyHook),
    ]);

    // duplicates: the same event (same webhook-id) received again after the first arrival
    const duplicates = (r: SigningReceiver) => r.arrivals.length - r.eventIds().size;
    const invalid = [outage, steady, slow].reduce(
      (n, r) => n + r.arrivals.filter((a) => !a.signatureValid).length + r.malformed,
      0,
    );
    const firstArrival = new Map<string, Arrival>();
    for (const a of outage.arrivals) if (!firstArrival.has(a.eventId)) firstArrival.set(a.eventId, a);
    const retriedArrivals = outage.arrivals.filter((a) => a.retryCount > 0).length;
    // delay after recovery: for an event held by the outage, its first arrival after recoveredAt
    const afterRecovery = [...firstArrival.values()].filter((a) => a.at >= recoveredAt);
    const recoveryDelays = afterRecovery.filter((a) => a.retryCount > 0).map((a) => a.at - recoveredAt);
    const maxRecoveryDelay = recoveryDelays.length ? Math.max(...recoveryDelays) : 0;

    // the documented recipe for the latest state: the payload with the newest updated_at
    let wrongFinalState = 0;
    let outOfOrderCases = 0;
    for (const c of load.cases) {
      const caseArrivals = outage.arrivals.filter((a) => a.kase?.id === c.id && a.event.startsWith('Case.'));
      let newest: Arrival | undefined;
      for (const a of caseArrivals)
        if (!newest || Date.parse(a.kase?.updated_at ?? '') > Date.parse(newest.kase?.updated_at ?? ''))
          newest = a;
      if (newest?.kase?.name !== c.finalName) wrongFinalState++;
      // informative (no order is promised): did this case's Case.* events first arrive in the
      // order of their updated_at?
      const seen = new Set<string>();
      const firsts = caseArrivals.filter((a) => !seen.has(a.eventId) && seen.add(a.eventId));
      const times = firsts.map((a) => Date.parse(a.kase?.updated_at ?? ''));
      if (times.some((t, i) => i > 0 && t < (times[i - 1] as number))) outOfOrderCases++;
    }

    // the steady receiver's latency: POST of a case → its Case.Created arrival
    const steadyFirst = new Map<string, number>();
    for (const a of steady.arrivals)
      if (a.event === 'Case.Created' && a.kase && !steadyFirst.has(a.kase.id))
        steadyFirst.set(a.kase.id, a.at);
    const steadyLatency = (phases: Phase[]) =>
      load.cases
        .filter((c) => phases.includes(c.phase) && steadyFirst.has(c.id))
        .map((c) => (steadyFirst.get(c.id) as number) - c.postedAt);
    const steadyBase = summarize(steadyLatency(['baseline']));
    const steadyLoaded = summarize(steadyLatency(['outage', 'recovery']));
    const apiBase = summarize(load.latencies.baseline);
    const apiLoaded = summarize([...load.latencies.outage, ...load.latencies.recovery]);

    // the slow receiver: what the service logged of its attempts
    // the oldest logs from the slow phase on: the newest wait behind the cap, not attempted yet
    const slowAttempts = await slowAttemptsOf();
    const slowTimedOut = slowAttempts.filter((a) => /timed out/.test(a.error ?? ''));
    // S has one webhook: the per-webhook cap binds first (defaults, the server gets no override)
    const slowCap = Math.min(
      Number(process.env.VERICASE_WEBHOOK_WORKSPACE_CONCURRENCY || 64),
      Number(process.env.VERICASE_WEBHOOK_WEBHOOK_CONCURRENCY || 32),
    );
    const slowArrivalsDuring = slow.arrivals.filter((a) => a.at >= outageStartedAt).length;

    // retries in the logs: a delivered log of the outage receiver with a refused attempt then a 2xx
    const during = `created_at.gt=${new Date(outageStartedAt + 1000).toISOString()}&created_at.lt=${new Date(recoveredAt - 1000).toISOString()}`;
    const retryLogs = await w.client.get(
      `/v1/webhook-logs?webhook_id=${outageHook}&limit=50&status=delivered&${during}`,
    );
    const retried = (retryLogs.body?.data ?? []).filter((l: { retry_count: number }) => l.retry_count > 0);
    const sample = retried[0] as
      | { retry_count: number; attempts: { type: string; status_code: number; error: string | null }[] }
      | undefined;
    const sampleOk =
      !!sample &&
      sample.attempts.length === sample.retry_count + 1 &&
      sample.attempts[0]?.status_code === 200 &&
      sample.attempts.at(-1)?.type === 'first_call' &&
      sample.attempts.some((a) => a.status_code === 0 && /ECONNREFUSED/.test(a.error ?? ''));

    printTable('figures', [
      {
        figure: 'cases / checks / renames created',
        value: `${load.cases.length} / ${load.checks} / ${load.updates}`,
      },
      { figure: 'API errors (non-2xx)', value: load.failures.length },
      { figure: 'events (distinct, steady receiver)', value: expected.size },
      { figure: 'events delivered to the recovered receiver', value: outage.eventIds().size },
      {
        figure: 'deliveries received (outage / steady / slow)',
        value: `${outage.arrivals.length} / ${steady.arrivals.length} / ${slow.arrivals.length}`,
      },
      { figure: 'duplicates (outage / steady)', value: `${duplicates(outage)} / ${duplicates(steady)}` },
      { figure: 'invalid signatures', value: invalid },
      { figure: 'arrivals that were retries (outage receiver)', value: retriedArrivals },
      { figure: 'logs of the outage webhook (delivered / all)', value: `${outageDelivered} / ${outageLogs}` },
      {
        figure: 'max delivery delay after recovery',
        value: `${maxRecoveryDelay} ms (${recoveryDelays.length} held events)`,
      },
      {
        figure: 'drained after load stopped',
        value: drained ? `${drainedAt - loadEndedAt} ms` : 'NOT within budget',
      },
      {
        figure: 'cases whose Case.* arrived out of order',
        value: `${outOfOrderCases} of ${load.cases.length} (no order promised)`,
      },
      {
        figure: 'API p50/p99 baseline',
        value: `${apiBase.p50.toFixed(0)} / ${apiBase.p99.toFixed(0)} ms (${apiBase.count})`,
      },
      {
        figure: 'API p50/p99 outage+slow',
        value: `${apiLoaded.p50.toFixed(0)} / ${apiLoaded.p99.toFixed(0)} ms (${apiLoaded.count})`,
      },
      {
        figure: 'steady receiver p50/p99 baseline',
        value: `${steadyBase.p50} / ${steadyBase.p99} ms (${steadyBase.count})`,
      },
      {
        figure: 'steady receiver p50/p99 outage+slow',
        value: `${steadyLoaded.p50} / ${steadyLoaded.p99} ms (${steadyLoaded.count})`,
      },
      { figure: 'slow receiver requests during the outage', value: slowArrivalsDuring },
      { figure: 'slow receiver requests open at once (max)', value: slow.maxOpen },
      {
        figure: 'slow webhook attempts timed out (oldest 50 logs of the slow phase)',
        value: `${slowTimedOut.length} of ${slowAttempts.length}`,
      },
    ]);
    if (load.failures.length) {
      process.stdout.write(`first API errors:\n  ${load.failures.slice(0, 5).join('\n  ')}\n`);
      const errors = server
        .output()
        .split('\n')
        .filter((l) => /"level":(50|60)/.test(l))
        .slice(0, 3);
      process.stdout.write(`first server errors:\n  ${errors.join('\n  ')}\n`);
    }

    const v = new Verdicts();
    v.check('the API answered every request 2xx', load.failures.length === 0, load.failures.length);
    v.check(
      'events were produced during the outage',
      load.cases.some((c) => c.phase === 'outage'),
      load.cases.filter((c) => c.phase === 'outage').length,
    );
    v.check(
      'every event reached the recovered receiver at least once',
      missingAtOutage.length === 0 && drained,
      `${missingAtOutage.length} missing`,
    );
    v.check(
      "every case's Case.Created reached both receivers",
      missingCases.length === 0,
      `${missingCases.length} missing`,
    );
    v.check(
      'one log per event, all delivered',
      outageLogs === expected.size && outageDelivered === outageLogs && steadyLogs === expected.size,
      `${outageDelivered}/${outageLogs}/${steadyLogs} for ${expected.size}`,
    );
    v.check('every signature valid (all receivers)', invalid === 0, invalid);
    v.check(
      'retries visible in GET /v1/webhook-logs (refused attempts, then 200)',
      retriedArrivals > 0 && sampleOk,
      sample ? `retry_count ${sample.retry_count}, ${sample.attempts.length} attempts` : 'no retried log',
    );
    v.check(
      'held events arrive within one retry interval after recovery',
      maxRecoveryDelay <= retryMaxMs * 1.2 + 5000,
      `${maxRecoveryDelay} ms ≤ ${Math.round(retryMaxMs * 1.2 + 5000)} ms`,
    );
    v.check(
      'the newest updated_at gives each case its final state',
      wrongFinalState === 0,
      `${wrongFinalState} wrong`,
    );
    v.check(
      'the slow receiver was really hit and timed out',
      slowArrivalsDuring > 0 && slowTimedOut.length > 0,
      `${slowArrivalsDuring} requests, ${slowTimedOut.length} timeouts`,
    );
    v.check(
      'the slow webhook held at most its cap of request slots at once',
      slow.maxOpen <= slowCap,
      `${slow.maxOpen} ≤ ${slowCap}`,
    );
    v.check(
      'API p99 not slowed by the slow receiver (≤ 3x baseline or 500 ms)',
      apiLoaded.p99 <= Math.max(3 * apiBase.p99, 500),
      `${apiLoaded.p99.toFixed(0)} ms vs ${apiBase.p99.toFixed(0)} ms`,
    );
    v.check(
      'steady receiver not slowed (p99 ≤ 3x baseline or 1000 ms)',
      steadyLoaded.count > 0 && steadyLoaded.p99 <= Math.max(3 * steadyBase.p99, 1000),
      `${steadyLoaded.p99} ms vs ${steadyBase.p99} ms`,
    );
    return v.finish();
  } finally {
    load.running = false;
    if (server) {
      const code = await Promise.race([
        server.stop(),
        sleep(timeoutMs + 20_000).then(() => 'timeout' as const),
      ]);
      if (code === 'timeout') await server.kill9();
    }
    for (const r of [outage, steady, slow]) await r.stop();
    database.cleanup();
  }
}
