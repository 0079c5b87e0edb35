/**
 * The fuzzer behind `npm run drill -- fuzz` and test/fuzz.test.ts: every operation of the served
 * OpenAPI document gets generated valid and invalid bodies, query strings, path ids and headers,
 * through app.inject; every answer must be below 500, documented for its operation and match the
 * documented schema. Path and body ids mostly name real resources of a seeded case graph so that
 * the code behind the 404s runs. Afterwards every read endpoint must still answer 200 for every
 * workspace the run touched.
 */
import fc from 'fast-check';
import type { App, AppContext } from '../../src/app-context.ts';
import { createWorkspace } from '../../src/workspaces/repository.ts';
import { makePng } from './files.ts';
import { IdPool, PROPERTY_KINDS } from './fuzz-ids.ts';
import { checkResponse, loadOperations, type Operation } from './fuzz-operations.ts';
import { sampleCaseBody } from './harness.ts';
import { deepNesting, HOSTILE_STRINGS, invalidArb, validArb } from './schema-arbitrary.ts';

export interface FuzzOptions {
  app: App;
  ctx: AppContext;
  requests: number;
  seed: number;
  /** Requests in flight at once (1: fully deterministic order). */
  concurrency?: number;
  /** Admin bearer token when the app has one (admin operations are then fuzzed past auth). */
  adminToken?: string | null;
  /** A new workspace (seeded) every this many requests. */
  requestsPerWorkspace?: number;
  /** Called for every problem as it is found. */
  onFinding?: (f: Finding) => void;
  onProgress?: (done: number) => void;
}

export interface Finding {
  operation: string;
  problem: string;
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  status: number;
  response: string;
}

export interface FuzzReport {
  requests: number;
  operations: number;
  operationsCovered: number;
  statuses: Record<number, number>;
  serverErrors: number;
  mismatches: number;
  /** Distinct (operation, problem) pairs, with the first example of each. */
  findings: Finding[];
  workspaces: number;
  sweep: { requests: number; failures: Finding[] };
  durationMs: number;
}

interface Workspace {
  id: string;
  key: string;
  pool: IdPool;
}

interface Request {
  op: Operation;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

/** Deterministic small PRNG (mulberry32) for picks that do not need fast-check's generators. */
function dice(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    chance: (p: number) => next() < p,
    int: (n: number) => Math.floor(next() * n),
    pick<T>(list: readonly T[]): T | undefined {
      return list.length ? list[Math.floor(next() * list.length)] : undefined;
    },
  };
}
type Dice = ReturnType<typeof dice>;

function sample<T>(arb: fc.Arbitrary<T>, seed: number): T {
  return fc.sample(arb, { seed, numRuns: 1 })[0];
}

const BAD_IDS = [
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  '%00',
  '%2500',
  "1' or '1'='1",
  '..%2F..%2Fetc%2Fpasswd',
  encodeURIComponent('é日😀'),
  '%ED%A0%80', // a lone surrogate, UTF-8 encoded the invalid way
  'x'.repeat(5_000),
  '%',
  '%zz',
  'null',
  '-1',
  '99999999999999999999',
];

const RAW_BODIES = [
  '{',
  '{"a":',
  '[1,',
  "{'a':1}",
  '{"a":1,}',
  'NaN',
  '1e999',
  '{"n":99999999999999999999999999999999}',
  '"\\u0000"',
  '{"s":"\\ud800"}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '[]',
  'null',
  'true',
  '0',
  '""',
  `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  `{"a":${'{"a":'.repeat(3_000)}1${'}'.repeat(3_000)}}`,
];

const OTHER_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data; boundary=xyz',
  'application/json; charset=latin1',
  'application/octet-stream',
  'application/json-patch+json',
  'invalid content type',
];

/** encodeURIComponent that also takes lone surrogates (sent as their invalid UTF-8 bytes). */
function enc(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return [...s]
      .map((c) => {
        const u = c.charCodeAt(0);
        if (c.length === 1 && u >= 0xd800 && u <= 0xdfff)
          return [0xe0 | (u >> 12), 0x80 | ((u >> 6) & 0x3f), 0x80 | (u & 0x3f)]
            .map((b) => `%${b.toString(16).toUpperCase()}`)
            .join('');
        return encodeURIComponent(c);
      })
      .join('');
  }
}

function multipart(fields: { name: string; filename?: string; contentType?: string; data: Buffer }[]) {
  const boundary = `----fuzz${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const f of fields) {
    const disp = `form-data; name="${f.name}"${f.filename ? `; filename="${f.filename}"` : ''}`;
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disp}\r\n${f.contentType ? `Content-Type: ${f.contentType}\r\n` : ''}\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export class Fuzzer {
  private readonly opts: Required<Omit<FuzzOptions, 'onFinding' | 'onProgress' | 'adminToken'>> & FuzzOptions;
  private operations: Operation[] = [];
  private readonly workspaces: Workspace[] = [];
  private readonly findingKeys = new Set<string>();
  readonly report: FuzzReport = {
    requests: 0,
    operations: 0,
    operationsCovered: 0,
    statuses: {},
    serverErrors: 0,
    mismatches: 0,
    findings: [],
    workspaces: 0,
    sweep: { requests: 0, failures: [] },
    durationMs: 0,
  };
  private readonly covered = new Set<string>();
  private order: Operation[] = [];

  constructor(opts: FuzzOptions) {
    this.opts = { concurrency: 1, requestsPerWorkspace: 5_000, ...opts };
  }

  async run(): Promise<FuzzReport> {
    const started = Date.now();
    // revoking an API key of the workspace would lock the fuzzer out of it (every later call a 401):
    // key revocation has its own tests (test/console-users.test.ts)
    this.operations = (await loadOperations(this.opts.app)).operations.filter(
      (o) => o.key !== 'DELETE /v1/api-keys/{id}',
    );
    this.report.operations = this.operations.length;
    const shuffle = dice(this.opts.seed);
    this.order = this.operations
      .map((op) => ({ op, k: shuffle.int(1_000_000) }))
      .sort((x, y) => x.k - y.k)
      .map((x) => x.op);
    const wsCount = Math.max(2, Math.ceil(this.opts.requests / this.opts.requestsPerWorkspace));
    for (let i = 0; i < wsCount; i++) await this.addWorkspace(i);
    await this.screeningReady();
    let next = 0;
    const worker = async () => {
      while (next < this.opts.requests) {
        const i = next++;
        const d = dice(this.opts.seed * 1_000_003 + i);
        const ws = this.workspaces[Math.floor((i / this.opts.requests) * wsCount)] ?? this.workspaces[0];
        // a fresh case graph now and then, so that deletes do not leave the fuzz nothing to aim at
        if (i > 0 && i % 400 === 0) await this.seed(ws, this.opts.seed + i);
        // every operation once (in a seeded order), then at random: coverage does not hang on the
        // dice, so adding an operation cannot leave another one unexercised
        const op = i < this.order.length ? this.order[i] : this.operations[d.int(this.operations.length)];
        await this.send(this.build(op, ws, d, this.opts.seed * 7_919 + i), ws);
        if ((i + 1) % 1_000 === 0) this.opts.onProgress?.(i + 1);
      }
    };
    await Promise.all(Array.from({ length: this.opts.concurrency }, worker));
    await this.sweep();
    this.report.operationsCovered = this.covered.size;
    this.report.workspaces = this.workspaces.length;
    this.report.durationMs = Date.now() - started;
    return this.report;
  }

  /** Sanctions lists load in the background at start-up (503 meanwhile, documented): wait for them. */
  private async screeningReady(): Promise<void> {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const res = await this.opts.app.inject({
        method: 'GET',
        url: '/v1/screening/search?name=ready',
        headers: { 'x-service-api-key': this.workspaces[0].key },
      });
      if (res.statusCode !== 503) return;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  // ---------- workspaces and their seed graph ----------

  private async addWorkspace(i: number): Promise<void> {
    const created = await createWorkspace(this.opts.ctx.db, `fuzz-${this.opts.seed}-${i}`);
    const ws: Workspace = { id: created.id, key: created.api_key, pool: new IdPool() };
    ws.pool.add('workspaces', { id: created.id });
    this.workspaces.push(ws);
    await this.seed(ws, this.opts.seed + i);
  }

  private op(key: string): Operation | undefined {
    return this.operations.find((o) => o.key === key);
  }

  /** A realistic graph: a case with companies, individuals, relations, then every other resource. */
  private async seed(ws: Workspace, seed: number): Promise<void> {
    const d = dice(seed);
    const headers = { 'x-service-api-key': ws.key, 'content-type': 'application/json' };
    const post = (op: Operation | undefined, url: string, body: unknown) =>
      op ? this.send({ op, method: 'POST', url, headers, payload: JSON.stringify(body) }, ws) : undefined;
    await post(this.op('POST /v1/cases'), '/v1/cases', sampleCaseBody(`fuzz-${seed}-${d.int(1e9)}`));
    const upload = this.op('POST /v1/files/upload');
    if (upload)
      for (let k = 0; k < 2; k++) {
        const form = multipart([
          { name: 'file', filename: 'id.png', data: makePng({ width: 4 + k, height: 4 }) },
        ]);
        await this.send(
          {
            op: upload,
            method: 'POST',
            url: '/v1/files/upload',
            headers: { ...headers, 'content-type': form.contentType },
            payload: form.payload,
          },
          ws,
        );
      }
    // every other creating operation, with bodies generated valid from its schema and real ids
    const creators = this.operations.filter(
      (o) =>
        o.method === 'POST' &&
        o.body?.mediaType === 'application/json' &&
        !o.path.startsWith('/admin') &&
        o.key !== 'POST /v1/cases',
    );
    for (const op of creators)
      for (let k = 0; k < 2; k++) {
        const url = this.url(op, ws, d, false);
        if (!url) continue;
        const body = this.withIds(sample(validArb(op.body?.schema ?? {}), seed * 31 + k), ws, d, 0.95);
        await post(op, url, body);
      }
  }

  // ---------- building a request ----------

  private pickId(ws: Workspace, kind: string, d: Dice, caseId?: string): string | undefined {
    const list = ws.pool.list(kind);
    if (!list.length) return undefined;
    const sameCase = caseId ? list.filter((e) => e.caseId === caseId) : [];
    return (sameCase.length && d.chance(0.8) ? d.pick(sameCase) : d.pick(list))?.id;
  }

  private otherWorkspace(ws: Workspace, d: Dice): Workspace | undefined {
    return d.pick(this.workspaces.filter((w) => w !== ws));
  }

  /** The URL with path ids: mostly real ones of the workspace, sometimes foreign or garbage. */
  private url(op: Operation, ws: Workspace, d: Dice, hostile: boolean): string | undefined {
    let url = op.path;
    let caseId: string | undefined;
    for (const p of op.params) {
      let id: string | undefined;
      const roll = hostile ? d.next() : 0;
      if (roll < 0.75) id = this.pickId(ws, p.kind, d, caseId);
      else if (roll < 0.82) id = this.pickId(ws, d.pick(ws.pool.kinds()) ?? p.kind, d);
      else if (roll < 0.89) {
        const other = this.otherWorkspace(ws, d);
        id = other && this.pickId(other, p.kind, d);
      }
      id ??= hostile && d.chance(0.5) ? d.pick(BAD_IDS) : sample(fc.uuid(), d.int(1e9));
      if (!hostile && id === undefined) return undefined;
      if (p.kind === 'cases') caseId = id;
      else caseId ??= ws.pool.list(p.kind).find((e) => e.id === id)?.caseId;
      url = url.replace(`{${p.name}}`, BAD_IDS.includes(id as string) ? (id as string) : enc(id as string));
    }
    return url;
  }

  /** Replaces generated ids in a body with real ones (each with probability `p`). */
  private withIds(value: unknown, ws: Workspace, d: Dice, p: number, caseId?: string, depth = 0): unknown {
    // deep nesting is itself the test: ids only matter near the top
    if (!value || typeof value !== 'object' || depth > 8) return value;
    if (Array.isArray(value)) return value.map((v) => this.withIds(v, ws, d, p, caseId, depth + 1));
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    let focus = caseId;
    if (typeof out.case_id === 'string' && d.chance(p)) {
      focus = this.pickId(ws, 'cases', d) ?? out.case_id;
      out.case_id = focus;
    }
    for (const [k, v] of Object.entries(out)) {
      const kind = PROPERTY_KINDS[k];
      if (kind && k !== 'case_id') {
        if (typeof v === 'string' && d.chance(p)) out[k] = this.pickId(ws, kind, d, focus) ?? v;
        else if (Array.isArray(v) && v.every((x) => typeof x === 'string') && d.chance(p))
          out[k] = v.map((x) => this.pickId(ws, kind, d, focus) ?? x);
        else out[k] = this.withIds(v, ws, d, p, focus, depth + 1);
      } else if (v && typeof v === 'object') out[k] = this.withIds(v, ws, d, p, focus, depth + 1);
    }
    return out;
  }

  private query(op: Operation, ws: Workspace, d: Dice, seed: number, hostile: boolean): string {
    const parts: string[] = [];
    for (const q of op.query) {
      if (!q.required && !d.chance(0.25)) continue;
      let v = sample(validArb(q.schema), seed + parts.length);
      if (typeof v === 'string' && /_id$/.test(q.name))
        v = this.pickId(ws, PROPERTY_KINDS[q.name] ?? '', d) ?? v;
      // list filters take operators: `name.ilike=...`, `created_at.gte=...`
      const name = d.chance(0.2)
        ? `${q.name}.${d.pick(['eq', 'not_eq', 'like', 'ilike', 'in', 'not_in', 'gt', 'lte', 'array_overlap'])}`
        : q.name;
      parts.push(`${enc(name)}=${enc(String(v))}`);
    }
    if (hostile) {
      const n = 1 + d.int(3);
      for (let k = 0; k < n; k++) {
        const q = d.pick(op.query);
        const bad = [
          'page=99999999999999999999',
          'page=0',
          'page=-1',
          'limit=0',
          'limit=101',
          'limit=1e3',
          'limit=abc',
          'page=1&page=2',
          'sort=unknown_field',
          'sort=name.asc.desc',
          'sort=,,,',
          `sort=${'created_at,'.repeat(500)}`,
          'unknown_param=1',
          '__proto__[x]=1',
          'constructor=1',
          'a=%zz',
          '%00=%00',
          'name.regex=x',
          'created_at.gt=never',
          'tags.in=',
          `x=${'y'.repeat(10_000)}`,
        ];
        if (q) {
          const badValue = sample(invalidArb(q.schema), seed + 100 + k);
          bad.push(
            `${enc(q.name)}=${enc(typeof badValue === 'string' ? badValue : (JSON.stringify(badValue) ?? ''))}`,
          );
          bad.push(`${enc(q.name)}=${enc(d.pick(HOSTILE_STRINGS) ?? '')}`);
          bad.push(`${enc(q.name)}.${d.pick(['nope', 'gt', 'in', 'like'])}=${enc(d.pick(BAD_IDS) ?? '')}`);
          bad.push(`${enc(q.name)}=%00`);
        }
        parts.push(d.pick(bad) as string);
      }
    }
    return parts.length ? `?${parts.join('&')}` : '';
  }

  private build(op: Operation, ws: Workspace, d: Dice, seed: number): Request {
    // 0: all valid, 1: invalid body, 2: invalid query/path, 3: transport and header attacks
    const mode = d.chance(0.45) ? 0 : d.chance(0.45) ? 1 : d.chance(0.5) ? 2 : 3;
    const headers: Record<string, string> = {};
    const isAdmin = op.path.startsWith('/admin');
    if (isAdmin) {
      if (this.opts.adminToken && !(mode === 3 && d.chance(0.3)))
        headers.authorization = `Bearer ${this.opts.adminToken}`;
    } else if (mode === 3 && d.chance(0.2)) {
      const other = this.otherWorkspace(ws, d);
      const roll = d.int(3);
      if (roll === 1)
        headers['x-service-api-key'] = d.pick(['vk_nope', '', 'x'.repeat(5_000), '\u00e9']) as string;
      else if (roll === 2 && other) headers['x-service-api-key'] = other.key; // a foreign key with our ids
    } else headers['x-service-api-key'] = ws.key;
    if (op.method === 'POST' && d.chance(0.1))
      headers['idempotency-key'] = d.pick([
        'k-1',
        `k-${d.int(20)}`,
        'x'.repeat(300),
        'é😀',
        ' ',
      ] as const) as string;
    if (mode === 3 && d.chance(0.1)) headers['x-request-id'] = 'r'.repeat(d.chance(0.5) ? 10 : 500);

    const url =
      (this.url(op, ws, d, mode === 2 || mode === 3) ?? op.path) + this.query(op, ws, d, seed, mode === 2);
    const req: Request = { op, method: op.method, url, headers };
    if (op.body?.mediaType === 'multipart/form-data') {
      const data = d.chance(0.5)
        ? makePng({ width: 3, height: 3 })
        : Buffer.from(d.pick(['', 'not an image', '%PDF-1.4 broken']) as string);
      const form = multipart(
        d.chance(0.8)
          ? [{ name: d.chance(0.9) ? 'file' : 'other', filename: 'f.png', data }]
          : [{ name: 'file', data: Buffer.from('plain field') }],
      );
      headers['content-type'] = mode === 3 ? (d.pick(OTHER_CONTENT_TYPES) as string) : form.contentType;
      req.payload = form.payload;
      return req;
    }
    if (!op.body) {
      if (mode === 3 && op.method !== 'GET' && d.chance(0.3)) {
        headers['content-type'] = 'application/json';
        req.payload = d.pick(RAW_BODIES);
      }
      return req;
    }
    const schema = op.body.schema;
    headers['content-type'] = 'application/json';
    if (mode === 3) {
      const roll = d.int(5);
      if (roll === 0) req.payload = d.pick(RAW_BODIES);
      else if (roll === 1) req.payload = '';
      else if (roll === 2) {
        headers['content-type'] = d.pick(OTHER_CONTENT_TYPES) as string;
        req.payload = JSON.stringify(sample(validArb(schema), seed));
      } else if (roll === 3) {
        // invalid UTF-8 inside a JSON string
        req.payload = Buffer.concat([
          Buffer.from('{"name":"'),
          Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
          Buffer.from('"}'),
        ]);
      } else {
        delete headers['content-type'];
        req.payload = JSON.stringify(sample(validArb(schema), seed));
      }
      return req;
    }
    const value = mode === 1 ? sample(invalidArb(schema), seed) : sample(validArb(schema), seed);
    const body = this.withIds(value, ws, d, mode === 1 ? 0.5 : 0.9);
    req.payload = JSON.stringify(body === undefined ? deepNesting(3) : body);
    return req;
  }

  // ---------- sending and judging ----------

  private async send(req: Request, ws: Workspace): Promise<{ status: number; json?: unknown }> {
    const res = await this.opts.app.inject({
      method: req.method as 'GET',
      url: req.url,
      headers: req.headers,
      ...(req.payload !== undefined ? { payload: req.payload } : {}),
    });
    this.report.requests++;
    this.report.statuses[res.statusCode] = (this.report.statuses[res.statusCode] ?? 0) + 1;
    this.covered.add(req.op.key);
    const verdict = checkResponse(
      req.op,
      res.statusCode,
      String(res.headers['content-type'] ?? ''),
      res.body,
    );
    if (!verdict.ok) this.finding(req, res.statusCode, res.body, verdict.problem as string, false);
    if (res.statusCode < 300 && verdict.json !== undefined && req.headers['x-service-api-key'] === ws.key)
      ws.pool.harvest(req.op.kind, verdict.json);
    return { status: res.statusCode, json: verdict.json };
  }

  private finding(req: Request, status: number, body: string, problem: string, sweep: boolean): void {
    if (sweep) this.report.sweep.failures.push(this.describe(req, status, body, problem));
    else if (status >= 500) this.report.serverErrors++;
    else this.report.mismatches++;
    // one example per operation and kind of problem (error details vary with the input)
    const key = `${req.op.key}|${problem.replace(/"[^"]*"|\d+/g, '#').slice(0, 160)}`;
    if (this.findingKeys.has(key)) return;
    this.findingKeys.add(key);
    const f = this.describe(req, status, body, problem);
    if (!sweep) this.report.findings.push(f);
    this.opts.onFinding?.(f);
  }

  private describe(req: Request, status: number, body: string, problem: string): Finding {
    const payload =
      req.payload === undefined
        ? undefined
        : Buffer.isBuffer(req.payload)
          ? `<${req.payload.length} bytes>`
          : req.payload;
    const headers = { ...req.headers };
    if (headers['x-service-api-key']) headers['x-service-api-key'] = '<key>';
    if (headers.authorization) headers.authorization = '<admin>';
    return {
      operation: req.op.key,
      problem,
      request: { method: req.method, url: req.url.slice(0, 500), headers, body: payload?.slice(0, 2_000) },
      status,
      response: body.slice(0, 1_000),
    };
  }

  // ---------- after the storm ----------

  /**
   * Every read endpoint still answers 200 for every workspace: each list, then each resource the
   * lists name (up to 25 per kind) through every GET that takes its id.
   */
  private async sweep(): Promise<void> {
    const reads = this.operations.filter(
      (o) => o.method === 'GET' && !o.path.startsWith('/admin') && o.path !== '/v1/openapi.json',
    );
    for (const ws of this.workspaces) {
      const listed = new IdPool();
      const get = async (op: Operation, url: string) => {
        const req: Request = { op, method: 'GET', url, headers: { 'x-service-api-key': ws.key } };
        const res = await this.opts.app.inject({ method: 'GET', url, headers: req.headers });
        this.report.sweep.requests++;
        const verdict = checkResponse(
          op,
          res.statusCode,
          String(res.headers['content-type'] ?? ''),
          res.body,
        );
        if (res.statusCode !== 200 || !verdict.ok)
          this.finding(
            req,
            res.statusCode,
            res.body,
            verdict.problem ?? `read answered ${res.statusCode}`,
            true,
          );
        else listed.harvest(op.kind, verdict.json);
      };
      for (const op of reads.filter((o) => o.params.length === 0)) {
        const required = op.query.filter((q) => q.required);
        const qs = required
          .map((q) => `${q.name}=${encodeURIComponent(String(sample(validArb(q.schema), 1)))}`)
          .join('&');
        const wide = op.query.some((q) => q.name === 'include_not_relevant')
          ? 'include_not_relevant=true&'
          : '';
        const limitMax = op.query.find((q) => q.name === 'limit')?.schema.maximum;
        const limit = limitMax ? `limit=${limitMax}&` : '';
        await get(op, `${op.path}?${wide}${limit}${ONE_OF_QUERY[op.path] ?? ''}${qs}`);
      }
      for (const op of reads.filter((o) => o.params.length === 1)) {
        for (const e of listed.list(op.params[0].kind).slice(0, 25))
          await get(op, op.path.replace(`{${op.params[0].name}}`, e.id));
      }
    }
  }
}

/**
 * Reads that need one of several optional parameters (OpenAPI cannot say "name or
 * registration_number"): the sweep gives them one, as a caller would.
 */
const ONE_OF_QUERY: Record<string, string> = {
  '/v1/company-data/search': 'name=acme&',
  '/v1/company-data/available-documents': 'registration_number=552100554&country=FR&',
};

export async function runFuzz(opts: FuzzOptions): Promise<FuzzReport> {
  return new Fuzzer(opts).run();
}
