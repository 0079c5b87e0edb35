import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import { checkResponse, loadOperations, type Operation } from './helpers/fuzz-operations.ts';
import { type Client, getHarness, newWorkspace, type Res, sampleCaseBody } from './helpers/harness.ts';
import { validArb } from './helpers/schema-arbitrary.ts';

/**
 * What is accepted on input can always be read back: for each resource, bodies generated valid
 * from the route's own schema (the served OpenAPI document) go through create and update; every
 * 2xx is followed by every read of the resource (one, list, inside its case), each of which must
 * answer 200, match its documented schema and give back every field that was set, with the value
 * that was sent (objects compared as subsets: a PATCH merges; a null sent may read back absent).
 */

/**
 * A custom webhook secret is printable ASCII, a rule the schema's string does not carry (docs/webhooks.md:
 * an older stored secret may be repeated): a generated one outside it is made printable, keeping its length.
 */
function asciiSecret(b: Record<string, unknown>, i: number): Record<string, unknown> {
  const secret = b.secret;
  if (typeof secret !== 'string' || /^[\x20-\x7e]*$/.test(secret)) return b;
  return { ...b, secret: secret.replace(/[^\x20-\x7e]/g, String.fromCharCode(97 + (i % 26))) };
}

const N = Number(process.env.ROUND_TRIP_BODIES ?? 12);
const SEED = Number(process.env.ROUND_TRIP_SEED ?? 4242);

type Json = any;

interface Graph {
  api: Client;
  caseId: string;
  companyIds: string[];
  individualIds: string[];
}

interface Read {
  op: string;
  url: string;
  /** The resource inside the answer (an item of a list, a nested object of the case). */
  find(body: Json): Json;
  /** Views that show only some fields (lists, the case) are compared on the fields they show. */
  partial?: boolean;
}

interface Step {
  op: string;
  url(g: Graph, id?: string): string;
  /** Semantic fix-ups a JSON schema cannot express (a URL, real ids of the graph). */
  prepare?(body: Json, g: Graph, i: number): Json;
}

interface Resource {
  name: string;
  create?: Step;
  update?: Step;
  /** The id of what a create made (default: body.id). */
  idOf?(body: Json, g: Graph): string;
  reads(g: Graph, id: string): Read[];
  /** Input fields that are not echoed under the same name (documented transformations). */
  skip?: string[];
  /** Documented normalisation: what the sent body must read back as, given the read object. */
  expect?(sent: Json, got: Json): Json;
}

/** Documented normalisation: IBAN and BIC are stored without spaces and in upper case (docs/compatibility.md). */
function bankingAsStored(sent: Json): Json {
  const b = sent.banking_information;
  if (!b || typeof b !== 'object') return sent;
  const compact = (v: unknown) => (typeof v === 'string' ? v.replace(/\s+/g, '').toUpperCase() : v);
  return {
    ...sent,
    banking_information: Object.fromEntries(Object.entries(b).map(([k, v]) => [k, compact(v)])),
  };
}

const enabledChecks = (b: Json): Json =>
  Array.isArray(b.checks)
    ? { ...b, checks: b.checks.map((c: Json) => ({ type: 'aml', targets: c.targets })) }
    : b;
const byId = (id: string) => (list: Json[] | undefined) => list?.find((x: Json) => x.id === id);
const inList = (id: string) => (body: Json) => byId(id)(body?.data);
const pick = <T>(list: T[], i: number) => list[i % list.length];

function inCase(g: Graph, key: 'companies' | 'individuals', id: string): Read {
  return {
    op: 'GET /v1/cases/{id}',
    url: `/v1/cases/${g.caseId}`,
    find: (b) => byId(id)(b?.[key]),
    partial: true,
  };
}

/** The relation with this id wherever the case shows it (from its company or individual). */
function relationIn(body: Json, id: string): Json {
  for (const e of [...(body?.companies ?? []), ...(body?.individuals ?? [])]) {
    const r = byId(id)(e.relations);
    if (r) return r;
  }
  return undefined;
}

function withCase(body: Json, g: Graph): Json {
  return { ...body, case_id: g.caseId };
}

const RESOURCES: Resource[] = [
  {
    name: 'cases',
    create: {
      op: 'POST /v1/cases',
      url: () => '/v1/cases',
      // the graph of a generated case (refs between entities) is tested by the case tests
      prepare: (b) => ({
        ...b,
        companies: undefined,
        individuals: undefined,
        template_id: undefined,
        template_key: undefined,
      }),
    },
    update: { op: 'PATCH /v1/cases/{id}', url: (g, id) => `/v1/cases/${id ?? g.caseId}` },
    idOf: (b, g) => b?.id ?? g.caseId,
    reads: (_g, id) => [
      { op: 'GET /v1/cases/{id}', url: `/v1/cases/${id}`, find: (b) => b },
      {
        op: 'GET /v1/cases',
        url: '/v1/cases?limit=100&sort=last_activity_at.desc&include_custom_properties=true',
        find: inList(id),
        partial: true,
      },
    ],
    skip: ['companies', 'individuals', 'template_id', 'template_key', 'assignee_id'],
    // documented: tag labels are stored without surrounding blanks (docs/compatibility.md)
    expect: (sent) => ({
      ...sent,
      ...(Array.isArray(sent.tags) ? { tags: sent.tags.map((t: string) => t.trim()) } : {}),
    }),
  },
  {
    name: 'companies',
    create: { op: 'POST /v1/companies', url: () => '/v1/companies', prepare: withCase },
    update: { op: 'PATCH /v1/companies/{id}', url: (g, id) => `/v1/companies/${id ?? g.companyIds[0]}` },
    reads: (g, id) => [
      { op: 'GET /v1/companies/{id}', url: `/v1/companies/${id}`, find: (b) => b },
      {
        op: 'GET /v1/companies',
        url: `/v1/companies?case_id=${g.caseId}&limit=100`,
        find: inList(id),
        partial: true,
      },
      inCase(g, 'companies', id),
    ],
    skip: ['case_id', 'relations', 'ref'],
    expect: bankingAsStored,
  },
  {
    name: 'individuals',
    create: { op: 'POST /v1/individuals', url: () => '/v1/individuals', prepare: withCase },
    update: {
      op: 'PATCH /v1/individuals/{id}',
      url: (g, id) => `/v1/individuals/${id ?? g.individualIds[0]}`,
    },
    reads: (g, id) => [
      { op: 'GET /v1/individuals/{id}', url: `/v1/individuals/${id}`, find: (b) => b },
      {
        op: 'GET /v1/individuals',
        url: `/v1/individuals?case_id=${g.caseId}&limit=100`,
        find: inList(id),
        partial: true,
      },
      inCase(g, 'individuals', id),
    ],
    skip: ['case_id', 'relations', 'ref'],
    expect: bankingAsStored,
  },
  {
    name: 'relations',
    create: {
      op: 'POST /v1/cases/{caseId}/relations',
      url: (g) => `/v1/cases/${g.caseId}/relations`,
      prepare: (b, g, i) => {
        const { from_company_id: _c, from_individual_id: _i, ...rest } = b;
        const from =
          i % 2
            ? { from_company_id: pick(g.companyIds.slice(1), i) }
            : { from_individual_id: pick(g.individualIds, i) };
        return { ...rest, ...from, to_company_id: g.companyIds[0] };
      },
    },
    update: {
      op: 'PATCH /v1/cases/{caseId}/relations/{caseRelationId}',
      url: (g, id) => `/v1/cases/${g.caseId}/relations/${id}`,
      prepare: ({ from_company_id: _c, from_individual_id: _i, to_company_id: _t, ...rest }) => rest,
    },
    reads: (g, id) => [
      {
        op: 'GET /v1/cases/{id}',
        url: `/v1/cases/${g.caseId}`,
        find: (b) => relationIn(b, id),
        partial: true,
      },
    ],
    skip: ['from_company_id', 'from_individual_id'],
  },
  {
    name: 'notes',
    create: { op: 'POST /v1/notes', url: () => '/v1/notes', prepare: withCase },
    reads: (g, id) => [
      { op: 'GET /v1/cases/{id}/notes', url: `/v1/cases/${g.caseId}/notes?limit=100`, find: inList(id) },
    ],
    // documented normalisation: note HTML is cleaned before it is stored
    skip: ['content'],
  },
  {
    name: 'tags',
    create: { op: 'POST /v1/tags', url: () => '/v1/tags' },
    update: { op: 'PATCH /v1/tags/{id}', url: (_g, id) => `/v1/tags/${id}` },
    reads: (_g, id) => [
      { op: 'GET /v1/tags/{id}', url: `/v1/tags/${id}`, find: (b) => b },
      { op: 'GET /v1/tags', url: '/v1/tags?limit=100&sort=created_at.desc', find: inList(id), partial: true },
    ],
  },
  {
    name: 'templates',
    // a check's `type` is any string to the schema and an enabled check type to the service: the
    // generated ones are made an enabled type (its settings left out: each type has its own rules)
    create: { op: 'POST /v1/templates', url: () => '/v1/templates', prepare: (b) => enabledChecks(b) },
    update: {
      op: 'PATCH /v1/templates/{id}',
      url: (_g, id) => `/v1/templates/${id}`,
      prepare: (b) => enabledChecks(b),
    },
    reads: (_g, id) => [
      { op: 'GET /v1/templates/{id}', url: `/v1/templates/${id}`, find: (b) => b },
      {
        op: 'GET /v1/templates',
        url: '/v1/templates?limit=100&sort=created_at.desc',
        find: inList(id),
        partial: true,
      },
    ],
  },
  {
    name: 'webhooks',
    create: {
      op: 'POST /v1/webhooks',
      url: () => '/v1/webhooks',
      prepare: (b, _g, i) => asciiSecret({ ...b, url: `https://hooks-${i}.example.com/in?n=${i}` }, i),
    },
    update: {
      op: 'PATCH /v1/webhooks/{id}',
      url: (_g, id) => `/v1/webhooks/${id}`,
      prepare: (b, _g, i) =>
        asciiSecret(b.url === undefined ? b : { ...b, url: `https://updated-${i}.example.com/` }, i),
    },
    reads: (_g, id) => [
      { op: 'GET /v1/webhooks/{id}', url: `/v1/webhooks/${id}`, find: (b) => b },
      {
        op: 'GET /v1/webhooks',
        url: '/v1/webhooks?limit=100&sort=created_at.desc',
        find: inList(id),
        partial: true,
      },
    ],
    // documented: events are a set; signature_header applies to hmac_sha256_hex only, lower-cased
    expect: (sent, got) => ({
      ...sent,
      ...(sent.events ? { events: [...new Set(sent.events)] } : {}),
      ...('signature_header' in sent
        ? {
            signature_header:
              got?.signature === 'hmac_sha256_hex'
                ? (sent.signature_header?.toLowerCase() ?? got.signature_header)
                : null,
          }
        : {}),
    }),
  },
  {
    name: 'risks',
    create: { op: 'POST /v1/cases/{id}/risks', url: (g) => `/v1/cases/${g.caseId}/risks` },
    idOf: (_b, g) => g.caseId,
    reads: (g) => [{ op: 'GET /v1/cases/{id}', url: `/v1/cases/${g.caseId}`, find: (b) => b?.risk }],
  },
  {
    name: 'settings',
    update: { op: 'PATCH /v1/workspace/settings', url: () => '/v1/workspace/settings' },
    idOf: () => 'settings',
    reads: () => [{ op: 'GET /v1/workspace/settings', url: '/v1/workspace/settings', find: (b) => b }],
  },
];

const short = (v: unknown) => {
  const text = JSON.stringify(v) ?? '';
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
};

/** Differences between what was sent and what a read gave back, as readable lines. */
function differences(
  sent: Json,
  got: Json,
  path: string,
  partial: boolean,
  skip: Set<string>,
  out: string[],
): void {
  if (sent === null) {
    // null clears: it reads back null, absent, empty, or as an object whose fields are all null
    const empty =
      got === null ||
      got === undefined ||
      (typeof got === 'object' &&
        Object.values(got).every((v) => v === null || (Array.isArray(v) && v.length === 0)));
    if (!empty) out.push(`${path}: sent null, read ${short(got)}`);
    return;
  }
  if (Array.isArray(sent)) {
    if (!Array.isArray(got) || got.length !== sent.length) {
      out.push(`${path}: sent ${short(sent)}, read ${short(got)}`);
      return;
    }
    // arrays of scalars may come back in another order (sets: roles, nationalities, events)
    if (sent.every((x) => typeof x !== 'object' || x === null)) {
      const key = (a: Json[]) => JSON.stringify([...a].map((x) => JSON.stringify(x)).sort());
      if (key(sent) !== key(got)) out.push(`${path}: sent ${short(sent)}, read ${short(got)}`);
      return;
    }
    for (const [i, s] of sent.entries()) differences(s, got[i], `${path}[${i}]`, partial, new Set(), out);
    return;
  }
  if (typeof sent === 'object') {
    if (!got || typeof got !== 'object') {
      out.push(`${path}: sent an object, read ${short(got)}`);
      return;
    }
    for (const [k, v] of Object.entries(sent)) {
      if (skip.has(k) || v === undefined) continue;
      if (!(k in got)) {
        if (!partial && v !== null) out.push(`${path}.${k}: sent ${short(v)}, not read back`);
        continue;
      }
      differences(v, got[k], `${path}.${k}`, partial, new Set(), out);
    }
    return;
  }
  if (sent !== got) out.push(`${path}: sent ${short(sent)}, read ${short(got)}`);
}

describe('round trip: what is accepted is read back', { timeout: 400_000 }, () => {
  let ops: Map<string, Operation>;

  before(async () => {
    const { app } = await getHarness();
    ops = new Map((await loadOperations(app)).operations.map((o) => [o.key, o]));
  });

  async function graph(): Promise<Graph> {
    const api = await newWorkspace('round-trip');
    const res = await api.post('/v1/cases', sampleCaseBody());
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return {
      api,
      caseId: res.body.id,
      companyIds: res.body.companies.map((c: Json) => c.id),
      individualIds: res.body.individuals.map((i: Json) => i.id),
    };
  }

  /** Sends a request and checks the answer against the operation's documented responses. */
  async function call(
    g: Graph,
    method: string,
    key: string,
    url: string,
    body: unknown,
    problems: string[],
  ): Promise<Res> {
    const op = ops.get(key);
    assert.ok(op, `${key} is not in the OpenAPI document`);
    const res = await (method === 'GET'
      ? g.api.get(url)
      : method === 'POST'
        ? g.api.post(url, body)
        : g.api.patch(url, body));
    const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
    const verdict = checkResponse(op, res.status, String(res.headers['content-type'] ?? ''), text);
    if (!verdict.ok)
      problems.push(
        `${method} ${url} ${JSON.stringify(body) ?? ''} → ${res.status}: ${verdict.problem} ${text.slice(0, 300)}`,
      );
    return res;
  }

  async function readsAgree(
    g: Graph,
    r: Resource,
    id: string,
    sent: Json,
    label: string,
    problems: string[],
  ) {
    for (const read of r.reads(g, id)) {
      const res = await call(g, 'GET', read.op, read.url, undefined, problems);
      if (res.status !== 200) {
        problems.push(
          `${label}: then GET ${read.url} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`,
        );
        continue;
      }
      const found = read.find(res.body);
      if (found === undefined) {
        problems.push(`${label}: then GET ${read.url} does not show ${id}`);
        continue;
      }
      const diffs: string[] = [];
      const expected = r.expect ? r.expect(sent, found) : sent;
      differences(expected, found, 'body', !!read.partial, new Set(r.skip ?? []), diffs);
      if (diffs.length)
        problems.push(
          `${label}: then GET ${read.url} reads back differently: ${diffs.slice(0, 5).join('; ')}`,
        );
    }
  }

  for (const r of RESOURCES) {
    test(r.name, async (t) => {
      const problems: string[] = [];
      let accepted = 0;
      let attempted = 0;
      const g = await graph();
      const ids: string[] = [];
      if (r.create) {
        const create = r.create;
        const schema = ops.get(create.op)?.body?.schema;
        assert.ok(schema, `${create.op} has no body schema`);
        const bodies = fc.sample(validArb(schema), { seed: SEED, numRuns: N });
        for (const [i, generated] of bodies.entries()) {
          const body = create.prepare ? create.prepare(generated, g, i) : generated;
          const sent = JSON.parse(JSON.stringify(body));
          const res = await call(g, 'POST', create.op, create.url(g), sent, problems);
          attempted++;
          if (res.status >= 300) continue;
          accepted++;
          const id = r.idOf ? r.idOf(res.body, g) : res.body.id;
          ids.push(id);
          await readsAgree(g, r, id, sent, `POST ${create.url(g)} ${short(sent)}`, problems);
        }
      }
      if (r.update) {
        const update = r.update;
        const schema = ops.get(update.op)?.body?.schema;
        assert.ok(schema, `${update.op} has no body schema`);
        const bodies = fc.sample(validArb(schema), { seed: SEED + 1, numRuns: N });
        for (const [i, generated] of bodies.entries()) {
          const id = ids.length ? pick(ids, i) : r.idOf ? r.idOf(undefined, g) : undefined;
          const body = update.prepare ? update.prepare(generated, g, i) : generated;
          const sent = JSON.parse(JSON.stringify(body));
          const url = update.url(g, id);
          const res = await call(g, 'PATCH', update.op, url, sent, problems);
          attempted++;
          if (res.status >= 300) continue;
          accepted++;
          await readsAgree(g, r, id ?? res.body.id, sent, `PATCH ${url} ${short(sent)}`, problems);
        }
      }
      t.diagnostic(`${r.name}: ${accepted} of ${attempted} generated bodies accepted and read back`);
      assert.deepEqual(problems, []);
      // valid bodies may meet business rules (a duplicate key, a relation rule), not most of them
      assert.ok(accepted >= attempted / 3, `only ${accepted} of ${attempted} valid bodies accepted`);
    });
  }

  test('a classification without description (optional on input) reads back', async () => {
    const g = await graph();
    const problems: string[] = [];
    const id = g.companyIds[0];
    const sent = { classifications: [{ type: 'NACE', code: '62.01' }] };
    const res = await call(g, 'PATCH', 'PATCH /v1/companies/{id}', `/v1/companies/${id}`, sent, problems);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await readsAgree(g, RESOURCES[1], id, sent, 'PATCH classifications', problems);
    assert.deepEqual(problems, []);
  });
});
