/**
 * `npm run compat:report` (`node scripts/compatibility-report.ts [--check]`): compares the reference
 * product's OpenAPI document (../shared/reference/anchor-openapi.json) with ours, built in-process
 * from the routes, and writes docs/compatibility-report.md:
 *
 * - every reference operation: ours has it (same method and path shape) or not, and the differences
 *   a reference client meets (query parameters, request body fields and values ours refuses, fields
 *   ours requires, success status codes), or why it is not supported;
 * - every resource the reference returns (the 2xx JSON schema of each operation, list items
 *   unwrapped), field by field against the response schema of the same operation on our side;
 * - webhook payloads: event names, the payload's context and entity keys.
 *
 * The output is sorted and has no timestamp: re-running on an unchanged tree gives no diff.
 * `--check` writes nothing and exits 1 when the committed report differs (for CI).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportCounts, syncGuideCounts } from './compatibility-guide-counts.ts';

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are untyped JSON
type Json = Record<string, any>;

export const ROOT = path.resolve(import.meta.dirname, '..');
export const REFERENCE_PATH = path.resolve(ROOT, '../shared/reference/anchor-openapi.json');
export const REPORT_PATH = path.join(ROOT, 'docs/compatibility-report.md');
export const GUIDE_PATH = path.join(ROOT, 'docs/compatibility.md');

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

// ------------------------------------------------------------------------------------------------
// Hand-kept knowledge: why an operation is not supported (first matching rule wins).
// ------------------------------------------------------------------------------------------------

const NOT_SUPPORTED_REASONS: { match: RegExp; reason: string }[] = [
  {
    match: /^[A-Z]+ \/v1\/company-data\//,
    reason:
      'company registry lookup (countries, legal forms, search, fetch, available documents, document orders) belongs to the company-data issue; not built yet',
  },
  {
    match: /^[A-Z]+ \/v1\/checks\/document\b|^GET \/v1\/document_types$/,
    reason:
      '`document` checks are not enabled (create answers 400 "not enabled"); they belong to their own issue',
  },
  {
    match: /^[A-Z]+ \/v1\/checks\/id_verification\b/,
    reason:
      '`id_verification` checks are not enabled (create answers 400 "not enabled"); they belong to their own issue',
  },
  {
    match: /^[A-Z]+ \/v1\/checks\/electronic_signature\b|\/document-templates\//,
    reason:
      '`electronic_signature` checks and document templates are not enabled (create answers 400 "not enabled"); they belong to the electronic-signature issue',
  },
  {
    match: /^[A-Z]+ \/v1\/checks\/fraud-database\b/,
    reason:
      '`fraud_database` checks are not enabled (create answers 400 "not enabled"); they belong to their own issue',
  },
  {
    match: /^[A-Z]+ \/v1\/checks\/company-monitoring\b/,
    reason:
      '`company_monitoring` checks (registry changes after onboarding) are not built; they need company data first',
  },
  {
    match: /client-portal/,
    reason:
      'the client portal (where the end customer supplies proofs) belongs to the portal issue; not built yet',
  },
  {
    match: /\/generate-report$/,
    reason: 'case reports (`CaseReport.Generated`) are not built yet',
  },
  {
    match: /^[A-Z]+ \/v1\/tables\b/,
    reason: 'tables are a console feature of the reference, outside the interface specification',
  },
  {
    match: /^[A-Z]+ \/v1\/routines\b/,
    reason: 'routines (console automations) are outside the interface specification',
  },
];

function notSupportedReason(op: string, fallback: string): string {
  return NOT_SUPPORTED_REASONS.find((r) => r.match.test(op))?.reason ?? fallback;
}

/**
 * Our webhook payload context, as docs/webhooks.md describes it and src/webhooks/build-deliveries.ts
 * builds it (payloads are not part of our OpenAPI document): `case` on every event tied to a case
 * (null when the case is gone without a copy), `individual` and `company` on check events.
 */
function ourWebhookContext(isCheck: boolean, isNoteComment = false): Json {
  const nullableObject = (properties: Json, required: string[]) => ({
    anyOf: [{ type: 'object', properties, required }, { type: 'null' }],
  });
  const properties: Json = {
    timestamp: { type: 'number' },
    event_id: { type: 'string' },
    retry_count: { type: 'number' },
    remaining_retry_count: { type: 'number' },
    workspace: {
      type: 'object',
      required: ['id', 'name'],
      properties: { id: { type: 'string' }, name: { type: 'string' } },
    },
    case: { anyOf: [{ type: 'object', additionalProperties: true }, { type: 'null' }] },
  };
  if (isCheck) {
    const person = { id: { type: 'string' }, first_name: { type: 'string' }, last_name: { type: 'string' } };
    const company = { id: { type: 'string' }, name: { type: 'string' }, country: { type: 'string' } };
    properties.individual = nullableObject(person, Object.keys(person));
    properties.company = nullableObject(company, Object.keys(company));
  }
  if (isNoteComment) {
    // the commented note: its id and author (a NestedUser, or null for an API-written note)
    const user = {
      id: { type: 'string' },
      first_name: { type: 'string' },
      last_name: { type: 'string' },
      email: { type: 'string' },
    };
    properties.note = nullableObject(
      { id: { type: 'string' }, author: nullableObject(user, Object.keys(user)) },
      ['id', 'author'],
    );
  }
  return { type: 'object', required: Object.keys(properties), properties };
}

/** The entity key of a reference webhook payload → ours (key, operation answering the same object). */
const OUR_WEBHOOK_ENTITY: Record<string, { key: string; op: string }> = {
  // Case.Deleted carries the case as the deletion left it: the object PATCH answers (no graph);
  // the other Case events the detailed case (below)
  case: { key: 'case', op: 'PATCH /v1/cases/{}' },
  company: { key: 'company', op: 'GET /v1/companies/{}' },
  individual: { key: 'individual', op: 'GET /v1/individuals/{}' },
  note: { key: 'note', op: 'POST /v1/notes' },
  noteComment: { key: 'noteComment', op: 'POST /v1/notes/{}/comments' },
  case_review: { key: 'case_review', op: 'POST /v1/cases/{}/reviews' },
  risk: { key: 'risk', op: 'POST /v1/cases/{}/risks' },
};

// ------------------------------------------------------------------------------------------------
// Schema normalisation: OpenAPI 3.0 (nullable, allOf wrappers) and 3.1 (type arrays, anyOf null)
// into one shape.
// ------------------------------------------------------------------------------------------------

interface Node {
  types: Set<string>; // object, array, string, number, boolean (integer counts as number)
  nullable: boolean;
  enum?: Set<string>;
  props?: Map<string, Node>;
  required: Set<string>;
  items?: Node;
  freeForm: boolean; // an object with additionalProperties and no declared properties
  cyclic?: string;
}

function emptyNode(): Node {
  return { types: new Set(), nullable: false, required: new Set(), freeForm: false };
}

function resolveRef(doc: Json, ref: string): Json {
  if (!ref.startsWith('#/')) throw new Error(`external $ref not supported: ${ref}`);
  let cur: Json | undefined = doc;
  for (const part of ref.slice(2).split('/')) cur = cur?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  if (!cur) throw new Error(`unresolved $ref ${ref}`);
  return cur;
}

function mergeInto(a: Node, b: Node): Node {
  for (const t of b.types) a.types.add(t);
  a.nullable ||= b.nullable;
  if (b.enum) {
    a.enum ??= new Set();
    for (const v of b.enum) a.enum.add(v);
  }
  if (b.props) {
    a.props ??= new Map();
    for (const [k, v] of b.props) {
      const cur = a.props.get(k);
      a.props.set(k, cur ? mergeInto(cloneNode(cur), v) : v);
    }
  }
  for (const r of b.required) a.required.add(r);
  if (b.items) a.items = a.items ? mergeInto(cloneNode(a.items), b.items) : b.items;
  a.freeForm ||= b.freeForm;
  a.cyclic ??= b.cyclic;
  return a;
}

function cloneNode(n: Node): Node {
  return {
    ...n,
    types: new Set(n.types),
    required: new Set(n.required),
    ...(n.enum ? { enum: new Set(n.enum) } : {}),
    ...(n.props ? { props: new Map(n.props) } : {}),
  };
}

function normalise(doc: Json, schema: Json | undefined, stack: string[] = []): Node {
  const node = emptyNode();
  if (!schema || typeof schema !== 'object') return node;
  if (schema.$ref) {
    const name = String(schema.$ref);
    if (stack.includes(name)) {
      node.types.add('object');
      node.cyclic = name.split('/').pop();
      return node;
    }
    mergeInto(node, normalise(doc, resolveRef(doc, name), [...stack, name]));
  }
  for (const part of schema.allOf ?? []) mergeInto(node, normalise(doc, part, stack));
  const union = [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  if (union.length) {
    // a union's members each require their own fields: the union requires only the common ones
    const members = union.map((m: Json) => normalise(doc, m, stack));
    let common: Set<string> | undefined;
    for (const m of members) {
      if (!m.props) continue;
      common = common ? new Set([...common].filter((r) => m.required.has(r))) : new Set(m.required);
    }
    for (const m of members) mergeInto(node, { ...m, required: new Set() });
    for (const r of common ?? []) node.required.add(r);
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  for (const t of types) {
    if (t === 'null') node.nullable = true;
    else node.types.add(t === 'integer' ? 'number' : t);
  }
  if (schema.nullable === true) node.nullable = true;
  const values = schema.enum ?? ('const' in schema ? [schema.const] : undefined);
  if (Array.isArray(values)) {
    node.enum ??= new Set();
    for (const v of values) {
      if (v === null) node.nullable = true;
      else {
        node.enum.add(String(v));
        node.types.add(typeof v === 'number' ? 'number' : typeof v);
      }
    }
  }
  if (schema.properties) {
    node.types.add('object');
    node.props ??= new Map();
    for (const [k, v] of Object.entries(schema.properties as Json)) {
      const child = normalise(doc, v as Json, stack);
      const cur = node.props.get(k);
      node.props.set(k, cur ? mergeInto(cloneNode(cur), child) : child);
    }
  }
  for (const r of schema.required ?? []) node.required.add(r);
  if (schema.items) {
    node.types.add('array');
    const items = normalise(doc, schema.items, stack);
    node.items = node.items ? mergeInto(cloneNode(node.items), items) : items;
  }
  if (schema.additionalProperties && schema.additionalProperties !== false) node.types.add('object');
  node.freeForm = node.types.has('object') && !node.props?.size && schema.additionalProperties !== false;
  return node;
}

// ------------------------------------------------------------------------------------------------
// Field-by-field comparison
// ------------------------------------------------------------------------------------------------

type DiffKind = 'missing' | 'extra' | 'type' | 'nullable' | 'enum' | 'required';

interface Diff {
  path: string;
  kind: DiffKind;
  detail: string;
}

interface Comparison {
  compared: number; // reference fields reached (a missing object counts once)
  matching: number;
  different: number;
  missing: number;
  extra: number;
  diffs: Diff[];
}

function describeTypes(n: Node): string {
  const t = [...n.types].sort().join('|') || 'any';
  return n.nullable ? `${t}|null` : t;
}

function countNested(n: Node | undefined): number {
  if (!n) return 0;
  let c = 0;
  for (const child of n.props?.values() ?? []) c += 1 + countNested(child);
  return c + countNested(n.items);
}

/**
 * Compares a reference field with ours. In `response` mode a difference is what a reference client
 * reading our answer meets; in `request` mode, what it meets sending the reference's body to us.
 */
function compareNodes(
  ref: Node,
  ours: Node,
  at: string,
  mode: 'response' | 'request',
  out: Comparison,
): boolean {
  let same = true;
  const untyped = !ours.types.size && !ours.props && !ours.items && !ours.enum && !ours.cyclic;
  if (untyped) {
    // `{}` on our side: anything goes in, and nothing is promised out
    if (mode === 'request') return true;
    if (!ref.types.size && !ref.props) return true;
    const nested = countNested(ref);
    out.diffs.push({
      path: at,
      kind: 'type',
      detail: `reference ${describeTypes(ref)}${nested ? ` with ${nested} nested fields` : ''}, ours undeclared (any${ours.nullable ? '|null' : ''})`,
    });
    return false;
  }
  const refTypes = [...ref.types];
  const ourTypes = [...ours.types];
  if (refTypes.length && ourTypes.length) {
    const lacking = refTypes.filter((t) => !ours.types.has(t));
    const adding = ourTypes.filter((t) => !ref.types.has(t));
    if ((mode === 'request' && lacking.length) || (mode === 'response' && adding.length)) {
      out.diffs.push({
        path: at,
        kind: 'type',
        detail: `reference ${describeTypes(ref)}, ours ${describeTypes(ours)}`,
      });
      same = false;
    }
  }
  if (mode === 'request' ? ref.nullable && !ours.nullable : ours.nullable && !ref.nullable) {
    out.diffs.push({
      path: at,
      kind: 'nullable',
      detail:
        mode === 'request'
          ? 'null accepted by the reference, refused by ours'
          : 'ours may be null, the reference never is',
    });
    same = false;
  }
  if (ref.enum && ours.enum) {
    const missing = [...ref.enum].filter((v) => !ours.enum!.has(v)).sort();
    const extra = [...ours.enum].filter((v) => !ref.enum!.has(v)).sort();
    if (mode === 'request') {
      if (missing.length) {
        out.diffs.push({
          path: at,
          kind: 'enum',
          detail: `values refused by ours: ${missing.map(code).join(', ')}`,
        });
        same = false;
      }
    } else if (missing.length || extra.length) {
      const parts = [];
      if (missing.length) parts.push(`never returned by ours: ${missing.map(code).join(', ')}`);
      if (extra.length) parts.push(`ours only: ${extra.map(code).join(', ')}`);
      out.diffs.push({ path: at, kind: 'enum', detail: parts.join('; ') });
      same = false;
    }
  }
  if (ref.props || ours.props) compareProps(ref, ours, at, mode, out);
  if (ref.items && ours.items) same = compareNodes(ref.items, ours.items, `${at}[]`, mode, out) && same;
  return same;
}

function compareProps(
  ref: Node,
  ours: Node,
  at: string,
  mode: 'response' | 'request',
  out: Comparison,
): void {
  const prefix = at ? `${at}.` : '';
  const refProps = ref.props ?? new Map<string, Node>();
  const ourProps = ours.props ?? new Map<string, Node>();
  for (const name of [...refProps.keys()].sort()) {
    const r = refProps.get(name)!;
    const o = ourProps.get(name);
    const p = `${prefix}${name}`;
    out.compared++;
    if (!o) {
      if (ours.freeForm || ref.cyclic) {
        out.matching++; // a free-form object on our side takes any key
        continue;
      }
      const nested = countNested(r);
      out.missing++;
      out.diffs.push({
        path: p,
        kind: 'missing',
        detail: `${describeTypes(r)}${nested ? ` (with ${nested} nested field${nested > 1 ? 's' : ''})` : ''}${
          mode === 'request' ? ': refused by ours (400)' : ''
        }`,
      });
      continue;
    }
    let same = true;
    if (mode === 'response' && ref.required.has(name) && !ours.required.has(name)) {
      out.diffs.push({
        path: p,
        kind: 'required',
        detail: 'always present in the reference, may be absent in ours',
      });
      same = false;
    }
    if (mode === 'request' && ours.required.has(name) && !ref.required.has(name)) {
      out.diffs.push({ path: p, kind: 'required', detail: 'optional in the reference, required by ours' });
      same = false;
    }
    if (o.cyclic || r.cyclic) {
      if (same) out.matching++;
      else out.different++;
      continue;
    }
    same = compareNodes(r, o, p, mode, out) && same;
    if (same) out.matching++;
    else out.different++;
  }
  for (const name of [...ourProps.keys()].sort()) {
    if (refProps.has(name) || ref.freeForm) continue;
    const p = `${prefix}${name}`;
    if (mode === 'request') {
      if (ours.required.has(name)) {
        out.diffs.push({ path: p, kind: 'required', detail: 'required by ours, unknown to the reference' });
      }
      continue;
    }
    out.extra++;
    out.diffs.push({ path: p, kind: 'extra', detail: describeTypes(ourProps.get(name)!) });
  }
}

export function compareSchemas(
  refDoc: Json,
  refSchema: Json | undefined,
  ourDoc: Json,
  ourSchema: Json | undefined,
  mode: 'response' | 'request',
): Comparison {
  const out: Comparison = { compared: 0, matching: 0, different: 0, missing: 0, extra: 0, diffs: [] };
  const ref = normalise(refDoc, refSchema);
  const ours = ourSchema ? normalise(ourDoc, ourSchema) : emptyNode();
  if (ourSchema) compareNodes(ref, ours, '', mode, out);
  else compareProps(ref, { ...emptyNode(), props: new Map() }, '', mode, out);
  return out;
}

// ------------------------------------------------------------------------------------------------
// Operations
// ------------------------------------------------------------------------------------------------

interface Operation {
  key: string; // "GET /v1/cases/{}"
  method: string;
  /** The path our OpenAPI document lists the operation under. */
  path: string;
  /**
   * For a check type's other spelling (`/v1/checks/fraud-database/{id}`): the path it answers at,
   * which the document does not list (`path` is then the listed one, `/v1/checks/fraud_database/{id}`).
   */
  alias?: string;
  op: Json;
}

/** Marks a path item copied under a check type's other spelling (withCheckPathAliases). */
const ALIAS_OF = 'x-alias-of';
const ALIAS_NOTE = "answered at the reference's path too, which our OpenAPI document does not list";

function shape(p: string): string {
  return p.replace(/\{[^}]+\}/g, '{}');
}

function operations(doc: Json, keep: (p: string) => boolean): Map<string, Operation> {
  const out = new Map<string, Operation>();
  for (const [p, item] of Object.entries(doc.paths ?? {}) as [string, Json][]) {
    if (!keep(p)) continue;
    for (const m of METHODS) {
      if (!item[m] || item[m]['x-hidden'] || item[m].hide) continue;
      const key = `${m.toUpperCase()} ${shape(p)}`;
      const listed = item[ALIAS_OF] as string | undefined;
      out.set(
        key,
        listed
          ? { key, method: m.toUpperCase(), path: listed, alias: p, op: item[m] }
          : { key, method: m.toUpperCase(), path: p, op: item[m] },
      );
    }
  }
  return out;
}

function sortOps<T extends { path: string; method: string }>(ops: T[]): T[] {
  const order = (m: string) => METHODS.indexOf(m.toLowerCase() as (typeof METHODS)[number]);
  return ops.sort((a, b) =>
    a.path === b.path ? order(a.method) - order(b.method) : shape(a.path) < shape(b.path) ? -1 : 1,
  );
}

function successCodes(op: Json): string[] {
  return Object.keys(op.responses ?? {})
    .filter((c) => /^2/.test(c))
    .sort();
}

function queryParams(op: Json): Set<string> {
  return new Set(
    (op.parameters ?? []).filter((p: Json) => p.in === 'query').map((p: Json) => String(p.name)),
  );
}

function jsonBody(op: Json): Json | undefined {
  const content = op.requestBody?.content ?? {};
  return content['application/json']?.schema ?? content['multipart/form-data']?.schema;
}

function successSchema(op: Json): { code: string; schema: Json } | undefined {
  for (const code of successCodes(op)) {
    const content = op.responses[code]?.content ?? {};
    const schema = content['application/json']?.schema;
    if (schema) return { code, schema };
  }
  return undefined;
}

type Status = 'supported' | 'supported with a difference' | 'not supported';

interface OperationRow {
  method: string;
  path: string;
  ours: string;
  status: Status;
  notes: string[];
}

function compareOperation(
  refDoc: Json,
  ref: Operation,
  ourDoc: Json,
  ours: Operation | undefined,
): OperationRow {
  const row: OperationRow = { method: ref.method, path: ref.path, ours: '', status: 'supported', notes: [] };
  const refCodes = successCodes(ref.op);
  const ourCodes = ours ? successCodes(ours.op) : [];
  if (!ours || !ourCodes.length) {
    row.status = 'not supported';
    row.ours = ours ? `${ours.method} ${ours.path} (no success answer)` : '—';
    row.notes.push(
      notSupportedReason(ref.key, ours ? 'the route exists but never succeeds' : 'no such operation'),
    );
    return row;
  }
  row.ours = `${ours.method} ${ours.path}`;
  if (ours.alias) row.notes.push(`${ALIAS_NOTE} (${ours.alias})`);
  const rq = queryParams(ref.op);
  const oq = queryParams(ours.op);
  const lackingQ = [...rq].filter((q) => !oq.has(q)).sort();
  // `status.in`, `created_at.gte`: the operator spellings of a filter (ours declares each one, so
  // that generated clients can send them; the reference takes them too, declared or not)
  const isOperatorSpelling = (q: string) => {
    const dot = q.lastIndexOf('.');
    return dot > 0 && oq.has(q.slice(0, dot));
  };
  const addedQ = [...oq].filter((q) => !rq.has(q) && !isOperatorSpelling(q)).sort();
  if (lackingQ.length)
    row.notes.push(`query parameters refused by ours (400): ${lackingQ.map(code).join(', ')}`);
  if (addedQ.length) row.notes.push(`query parameters ours adds: ${addedQ.map(code).join(', ')}`);
  if (refCodes.join() !== ourCodes.join()) {
    row.notes.push(`success status: reference ${refCodes.join(', ')}, ours ${ourCodes.join(', ')}`);
  }
  const refBody = jsonBody(ref.op);
  const ourBody = jsonBody(ours.op);
  if (refBody) {
    const cmp = compareSchemas(refDoc, refBody, ourDoc, ourBody, 'request');
    const refused = cmp.diffs.filter((d) => d.kind !== 'extra');
    if (!ourBody) row.notes.push('ours takes no request body');
    for (const d of refused) row.notes.push(`body \`${d.path || '(root)'}\`: ${d.detail}`);
  } else if (ourBody && normalise(ourDoc, ourBody).required.size) {
    row.notes.push(
      `ours requires a body (${[...normalise(ourDoc, ourBody).required].sort().map(code).join(', ')})`,
    );
  }
  // neither refuses a reference client: they leave the operation supported
  if (row.notes.some((n) => !n.startsWith('query parameters ours adds') && !n.startsWith(ALIAS_NOTE)))
    row.status = 'supported with a difference';
  return row;
}

// ------------------------------------------------------------------------------------------------
// Resources
// ------------------------------------------------------------------------------------------------

interface Resource {
  name: string;
  refOp: Operation;
  via: string; // where the resource sits in the answer ('' or 'data[]')
  refSchema: Json;
  ourOp?: Operation;
  ourSchema?: Json;
  alsoIn: string[];
  comparison?: Comparison;
}

const PREFERENCE = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

function refName(schema: Json): string | undefined {
  if (schema.$ref) return String(schema.$ref).split('/').pop();
  if (schema.allOf?.length === 1 && schema.allOf[0].$ref) return refName(schema.allOf[0]);
  return undefined;
}

/** A `{data: [item], pagination}` list: the item schema, and the envelope without `data`. */
function unwrapList(doc: Json, schema: Json): { item: Json; envelope: Json } | undefined {
  const resolved = schema.$ref ? resolveRef(doc, schema.$ref) : schema;
  const data = resolved?.properties?.data;
  if (resolved?.type !== 'object' || data?.type !== 'array' || !data.items) return undefined;
  const { data: _data, ...rest } = resolved.properties;
  return {
    item: data.items,
    envelope: {
      ...resolved,
      properties: rest,
      required: (resolved.required ?? []).filter((r: string) => r !== 'data'),
    },
  };
}

/** Names for answers the reference leaves unnamed (an inline union), by operationId. */
const UNNAMED_RESOURCES: Record<string, string> = {
  'company-get-one-vendor-data': 'CompanyVendorData',
  'custom-property-get-custom-properties': 'CustomProperty',
  'custom-property-get-custom-property': 'CustomProperty (detailed)',
};

function resourceName(refDoc: Json, op: Operation, schema: Json): string {
  const named = refName(schema);
  if (named) return named;
  const alias = UNNAMED_RESOURCES[String(op.op.operationId)];
  if (alias) return alias;
  const members = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(members) && members.every((m: Json) => m.$ref)) {
    const names = members.map((m: Json) => refName(m)!);
    return `${commonPrefix(names) || 'OneOf'} (one of ${names.length})`;
  }
  void refDoc;
  return `${op.op.operationId ?? op.key} answer`;
}

function commonPrefix(names: string[]): string {
  let p = names[0] ?? '';
  for (const n of names) while (!n.startsWith(p)) p = p.slice(0, -1);
  return p;
}

function collectResources(refDoc: Json, refOps: Operation[], ourDoc: Json, ourOps: Map<string, Operation>) {
  const byName = new Map<string, Resource>();
  const envelopes: { op: string; comparison: Comparison; ours: boolean }[] = [];
  const ordered = [...refOps].sort(
    (a, b) => PREFERENCE.indexOf(a.method) - PREFERENCE.indexOf(b.method) || (a.key < b.key ? -1 : 1),
  );
  for (const op of ordered) {
    const success = successSchema(op.op);
    if (!success) continue;
    const ours = ourOps.get(op.key);
    const ourSuccess = ours ? successSchema(ours.op) : undefined;
    const list = unwrapList(refDoc, success.schema);
    let refSchema = success.schema;
    let ourSchema = ourSuccess?.schema;
    let via = '';
    if (list) {
      refSchema = list.item;
      via = 'data[]';
      const ourList = ourSchema ? unwrapList(ourDoc, ourSchema) : undefined;
      ourSchema = ourList?.item ?? (ourSchema ? undefined : undefined);
      envelopes.push({
        op: `${op.method} ${op.path}`,
        comparison: compareSchemas(refDoc, list.envelope, ourDoc, ourList?.envelope, 'response'),
        ours: Boolean(ourList),
      });
    }
    const name = resourceName(refDoc, op, refSchema);
    const existing = byName.get(name);
    if (existing) {
      existing.alsoIn.push(`${op.method} ${op.path}${via ? ` ${via}` : ''}`);
      // prefer an operation ours has
      if (!existing.ourSchema && ourSchema) {
        existing.alsoIn.push(
          `${existing.refOp.method} ${existing.refOp.path}${existing.via ? ` ${existing.via}` : ''}`,
        );
        existing.alsoIn = existing.alsoIn.filter(
          (a) => a !== `${op.method} ${op.path}${via ? ` ${via}` : ''}`,
        );
        Object.assign(existing, { refOp: op, via, refSchema, ourOp: ours, ourSchema });
      }
      continue;
    }
    byName.set(name, { name, refOp: op, via, refSchema, ourOp: ours, ourSchema, alsoIn: [] });
  }
  for (const r of byName.values()) {
    r.comparison = compareSchemas(refDoc, r.refSchema, ourDoc, r.ourSchema, 'response');
    r.alsoIn.sort();
  }
  const resources = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  envelopes.sort((a, b) => (a.op < b.op ? -1 : 1));
  return { resources, envelopes };
}

// ------------------------------------------------------------------------------------------------
// Webhook payloads
// ------------------------------------------------------------------------------------------------

interface WebhookRow {
  name: string;
  events: string[];
  missingEvents: string[];
  context: Comparison;
  entities: string[];
}

function compareWebhooks(refDoc: Json, ourDoc: Json, ourOps: Map<string, Operation>, ourEvents: Set<string>) {
  const rows: WebhookRow[] = [];
  const schemas = refDoc.components?.schemas ?? {};
  for (const name of Object.keys(schemas).sort()) {
    if (!name.endsWith('Webhook') || !schemas[name]?.properties?.event) continue;
    const s = schemas[name];
    const events = [...(s.properties.event.enum ?? []), ...(s.properties.sub_event?.enum ?? [])]
      .map(String)
      .sort();
    const isCheck = Boolean(s.properties.check);
    const context = compareSchemas(
      refDoc,
      s.properties.context,
      ourDoc,
      ourWebhookContext(isCheck, name === 'NoteCommentWebhook'),
      'response',
    );
    const entities: string[] = [];
    for (const key of Object.keys(s.properties).sort()) {
      if (['event', 'sub_event', 'context'].includes(key)) continue;
      const target = refName(s.properties[key]) ?? 'inline';
      let mapped = OUR_WEBHOOK_ENTITY[key];
      if (key === 'check') {
        const slug = name
          .replace(/CheckWebhook$/, '')
          .replace(/([a-z])([A-Z])/g, '$1_$2')
          .toLowerCase();
        mapped = { key: 'check', op: `GET /v1/checks/${slug}/{}` };
      }
      if (key === 'case' && name === 'CaseWebhook') mapped = { key: 'case', op: 'GET /v1/cases/{}' };
      const ours = mapped ? ourOps.get(mapped.op) : undefined;
      const renamed = mapped && mapped.key !== key ? ` under the key \`${mapped.key}\` (renamed)` : '';
      const ourSchema = ours ? successSchema(ours.op) : undefined;
      if (!ours || !ourSchema) {
        entities.push(`\`${key}\` (${target}): no counterpart`);
        continue;
      }
      // the entity itself against the reference's, fields missing or different only (extras aside)
      const cmp = compareSchemas(refDoc, s.properties[key], ourDoc, ourSchema.schema, 'response');
      const gaps = cmp.diffs.filter((d) => d.kind !== 'extra');
      const shown = gaps.slice(0, 8).map((d) => `\`${d.path}\` ${d.kind}`);
      const more = gaps.length > shown.length ? `, and ${gaps.length - shown.length} more` : '';
      entities.push(
        `\`${key}\` (${target}): ours sends the object of ${ours.method} ${ours.path}${renamed}` +
          (gaps.length ? `; against the reference's: ${shown.join(', ')}${more}` : ', same fields'),
      );
    }
    rows.push({ name, events, missingEvents: events.filter((e) => !ourEvents.has(e)), context, entities });
  }
  return rows;
}

// ------------------------------------------------------------------------------------------------
// Rendering
// ------------------------------------------------------------------------------------------------

function code(s: string): string {
  return `\`${s}\``;
}

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function anchor(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}

export interface ReportInput {
  reference: Json;
  ours: Json;
  /** Every event name our webhooks deliver (event and sub_event values). */
  ourEvents: readonly string[];
}

export function renderReport({ reference, ours, ourEvents }: ReportInput): string {
  const refOps = sortOps([...operations(reference, () => true).values()]);
  const ourOps = operations(ours, (p) => p.startsWith('/v1/'));
  const rows = refOps.map((op) => compareOperation(reference, op, ours, ourOps.get(op.key)));
  const refKeys = new Set(refOps.map((o) => o.key));
  // a listed operation that answers a reference operation under its other spelling is not one ours adds
  const answeringByAlias = new Set(
    [...ourOps.values()].filter((o) => o.alias && refKeys.has(o.key)).map((o) => `${o.method} ${o.path}`),
  );
  const oursOnly = sortOps(
    [...ourOps.values()].filter(
      (o) => !o.alias && !refKeys.has(o.key) && !answeringByAlias.has(`${o.method} ${o.path}`),
    ),
  );
  const { resources, envelopes } = collectResources(reference, refOps, ours, ourOps);
  const webhooks = compareWebhooks(reference, ours, ourOps, new Set(ourEvents));

  const count = (s: Status) => rows.filter((r) => r.status === s).length;
  const withCounterpart = resources.filter((r) => r.ourSchema);
  const total = (rs: Resource[], k: keyof Omit<Comparison, 'diffs'>) =>
    rs.reduce((n, r) => n + (r.comparison?.[k] ?? 0), 0);
  const refEventNames = [...new Set(webhooks.flatMap((w) => w.events))].sort();
  const missingEventNames = refEventNames.filter((e) => !ourEvents.includes(e));

  const L: string[] = [];
  L.push('# Compatibility report (generated)');
  L.push('');
  L.push(
    "Generated by `npm run compat:report` (`scripts/compatibility-report.ts`) from the reference product's OpenAPI document (`../shared/reference/anchor-openapi.json`) and ours (built from the routes, as `GET /v1/openapi.json` serves it). Do not edit by hand: re-run the script. `node scripts/compatibility-report.ts --check` fails when this file is stale. How to migrate, and the deliberate differences: `docs/compatibility.md`.",
  );
  L.push('');
  L.push('## Summary');
  L.push('');
  L.push(
    '| operations of the reference | supported | supported with a difference | not supported | operations ours adds |',
  );
  L.push('|---|---|---|---|---|');
  L.push(
    `| ${refOps.length} | ${count('supported')} | ${count('supported with a difference')} | ${count('not supported')} | ${oursOnly.length} |`,
  );
  L.push('');
  L.push(
    '| resources of the reference | with a counterpart in ours | fields compared | matching | different | missing in ours | extra in ours |',
  );
  L.push('|---|---|---|---|---|---|---|');
  L.push(
    `| ${resources.length} | ${withCounterpart.length} | ${total(resources, 'compared')} | ${total(resources, 'matching')} | ${total(resources, 'different')} | ${total(resources, 'missing')} | ${total(resources, 'extra')} |`,
  );
  L.push('');
  L.push(
    `Among the resources with a counterpart: ${total(withCounterpart, 'compared')} fields compared, ${total(withCounterpart, 'matching')} matching, ${total(withCounterpart, 'different')} different, ${total(withCounterpart, 'missing')} missing, ${total(withCounterpart, 'extra')} extra. Webhook event names of the reference: ${refEventNames.length}, of which ours never sends ${missingEventNames.length}.`,
  );
  L.push('');
  L.push('How to read it:');
  L.push('');
  L.push(
    '- An operation matches when the method and the path shape are the same (path parameter names do not matter). It is *supported with a difference* when a reference client can meet a refusal or another answer: a query parameter or a body field the reference takes and ours refuses (our input is strict: an unknown field is a 400), a value of an enumeration ours refuses, a field ours requires and the reference does not, another success status. Query parameters ours adds are listed without changing the status. *Not supported*: ours has no such operation, or the route exists only to answer 400 "not enabled".',
  );
  L.push(
    '- A resource is the 2xx JSON answer of a reference operation (list items unwrapped from `{data, pagination}`), compared with the answer of the same operation on our side, recursively, in dotted paths (`[]` is an array item). A field missing in ours counts once, its nested fields are not counted. *different*: present on both sides with another type, an enumeration with other values, a null ours may return where the reference never does, or a field the reference always returns that ours may omit. `integer` and `number` count as the same type. A free-form object (`metadata`, `custom_properties`) takes any key.',
  );
  L.push('');

  L.push('## Operations');
  L.push('');
  L.push('| # | reference | ours | status | differences / reason |');
  L.push('|---|---|---|---|---|');
  rows.forEach((r, i) => {
    L.push(
      `| ${i + 1} | ${r.method} ${cell(r.path)} | ${cell(r.ours)} | ${r.status} | ${cell(r.notes.join('; ')) || ''} |`,
    );
  });
  L.push('');
  L.push('### Operations ours adds');
  L.push('');
  L.push('| ours | summary |');
  L.push('|---|---|');
  for (const o of oursOnly) L.push(`| ${o.method} ${cell(o.path)} | ${cell(String(o.op.summary ?? ''))} |`);
  L.push('');

  L.push('## Resources');
  L.push('');
  L.push(
    '| resource | reference operation | ours | fields compared | matching | different | missing | extra |',
  );
  L.push('|---|---|---|---|---|---|---|---|');
  for (const r of resources) {
    const c = r.comparison!;
    L.push(
      `| [${r.name}](#${anchor(r.name)}) | ${r.refOp.method} ${cell(r.refOp.path)}${r.via ? ` ${r.via}` : ''} | ${r.ourSchema ? 'yes' : '—'} | ${c.compared} | ${c.matching} | ${c.different} | ${c.missing} | ${c.extra} |`,
    );
  }
  L.push('');
  for (const r of resources) {
    const c = r.comparison!;
    L.push(`### ${r.name}`);
    L.push('');
    L.push(
      `Reference: ${r.refOp.method} ${r.refOp.path}${r.via ? ` (${r.via})` : ''}${r.alsoIn.length ? `; also in ${r.alsoIn.join(', ')}` : ''}. Ours: ${r.ourSchema ? `${r.ourOp!.method} ${r.ourOp!.path}${r.via ? ` (${r.via})` : ''}` : `no counterpart (${notSupportedReason(r.refOp.key, 'no such operation')})`}. ${c.compared} fields compared: ${c.matching} matching, ${c.different} different, ${c.missing} missing, ${c.extra} extra.`,
    );
    L.push('');
    if (!r.ourSchema) continue;
    if (!c.diffs.length) {
      L.push('No difference.');
      L.push('');
      continue;
    }
    L.push('| field | difference | detail |');
    L.push('|---|---|---|');
    for (const d of sortDiffs(c.diffs))
      L.push(`| \`${cell(d.path || '(root)')}\` | ${d.kind} | ${cell(d.detail)} |`);
    L.push('');
  }

  L.push('### List envelopes');
  L.push('');
  L.push('The `{data, pagination}` wrapper of every list, `data` excluded.');
  L.push('');
  L.push('| reference operation | ours | differences |');
  L.push('|---|---|---|');
  for (const e of envelopes) {
    const d = sortDiffs(e.comparison.diffs)
      .map((x) => `\`${x.path}\` ${x.kind}: ${x.detail}`)
      .join('; ');
    L.push(`| ${cell(e.op)} | ${e.ours ? 'yes' : '—'} | ${cell(e.ours ? d || 'none' : '')} |`);
  }
  L.push('');

  L.push('## Webhook payloads');
  L.push('');
  L.push(
    "Here our context is compared with the one `docs/webhooks.md` describes (kept in the script), and an entity key with the answer of the operation that returns the same object (our events carry the same presented objects as the API). Our OpenAPI document declares each event's body under `webhooks`; test/compat-webhook-payloads.test.ts validates real deliveries against both documents.",
  );
  L.push('');
  if (missingEventNames.length) {
    L.push(`Event names of the reference ours never sends: ${missingEventNames.map(code).join(', ')}.`);
  } else {
    L.push('Ours sends every event name of the reference.');
  }
  L.push('');
  L.push('| payload | event names ours lacks | context differences | entity keys |');
  L.push('|---|---|---|---|');
  for (const w of webhooks) {
    const ctx = sortDiffs(w.context.diffs)
      .map((x) => `\`${x.path}\` ${x.kind}`)
      .join(', ');
    L.push(
      `| ${w.name} | ${w.missingEvents.map(code).join(', ') || 'none'} | ${cell(ctx || 'none')} | ${cell(w.entities.join('; '))} |`,
    );
  }
  L.push('');
  return `${L.join('\n')}`;
}

const KIND_ORDER: DiffKind[] = ['missing', 'type', 'enum', 'nullable', 'required', 'extra'];

function sortDiffs(diffs: Diff[]): Diff[] {
  return [...diffs].sort(
    (a, b) =>
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
}

// ------------------------------------------------------------------------------------------------
// Building our document, and the command
// ------------------------------------------------------------------------------------------------

export function readReference(): Json {
  return JSON.parse(fs.readFileSync(REFERENCE_PATH, 'utf8'));
}

export async function ourEventNames(): Promise<string[]> {
  const catalog = await import('../src/events/catalog.ts');
  return [...catalog.TOP_LEVEL_EVENTS, ...Object.keys(catalog.SUB_EVENT_FAMILY)].sort();
}

/**
 * A check type answers on its other spellings too (`/v1/checks/fraud-database` next to the spec's
 * `/v1/checks/fraud_database`); the OpenAPI document lists each operation once, under the type's
 * name, so the comparison adds the alias paths as copies of the documented ones.
 */
export async function withCheckPathAliases(doc: Json): Promise<Json> {
  const { CHECK_TYPE_DEFINITIONS } = await import('../src/checks/registry.ts');
  for (const def of CHECK_TYPE_DEFINITIONS) {
    const prefix = `/v1/checks/${def.type}`;
    for (const alias of def.pathAliases ?? []) {
      for (const [p, item] of Object.entries(doc.paths ?? {})) {
        if (p !== prefix && !p.startsWith(`${prefix}/`)) continue;
        const aliasPath = `/v1/checks/${alias}${p.slice(prefix.length)}`;
        // marked, so the report names the path our document lists, not one it does not
        doc.paths[aliasPath] ??= { ...(item as Json), [ALIAS_OF]: p };
      }
    }
  }
  return doc;
}

/** Our OpenAPI document as served, with the check types' alias paths added for the comparison. */
export async function buildOurDocument(): Promise<Json> {
  const { buildServedDocument } = await import('./openapi-document.ts');
  return withCheckPathAliases((await buildServedDocument()) as Json);
}

async function main(argv: string[]): Promise<number> {
  const check = argv.includes('--check');
  const report = renderReport({
    reference: readReference(),
    ours: await buildOurDocument(),
    ourEvents: await ourEventNames(),
  });
  const current = fs.existsSync(REPORT_PATH) ? fs.readFileSync(REPORT_PATH, 'utf8') : '';
  const guide = fs.readFileSync(GUIDE_PATH, 'utf8');
  const syncedGuide = syncGuideCounts(guide, reportCounts(report));
  if (check) {
    let stale = 0;
    if (current !== report) {
      process.stderr.write(
        'docs/compatibility-report.md is stale: run `npm run compat:report` and commit it\n',
      );
      stale++;
    }
    if (syncedGuide !== guide) {
      process.stderr.write(
        "docs/compatibility.md quotes other counts than the report's: run `npm run compat:report` and commit it\n",
      );
      stale++;
    }
    if (stale) return 1;
    process.stdout.write(
      'docs/compatibility-report.md and the counts docs/compatibility.md quotes are up to date\n',
    );
    return 0;
  }
  fs.writeFileSync(REPORT_PATH, report);
  process.stdout.write(`wrote ${path.relative(process.cwd(), REPORT_PATH)}\n`);
  if (syncedGuide !== guide) {
    fs.writeFileSync(GUIDE_PATH, syncedGuide);
    process.stdout.write(`updated the counts in ${path.relative(process.cwd(), GUIDE_PATH)}\n`);
  }
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(await main(process.argv.slice(2)));
}
