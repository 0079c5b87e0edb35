/**
 * The operations of the served OpenAPI document, with what a fuzzer needs of each: path parameters
 * and the kind of id each names, query parameters, the body schema, and a compiled ajv validator
 * for every documented response (the contract each answer is checked against).
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { App } from '../../src/app-context.ts';
import { customFormats } from '../../src/http/schema-formats.ts';
import { pathParamKinds } from './fuzz-ids.ts';
import { deref, type Schema } from './schema-arbitrary.ts';

export interface DocumentedResponse {
  /** Media type of the documented body, or undefined when the status has no body. */
  mediaType?: string;
  validate?: ValidateFunction;
}

export interface Operation {
  /** `POST /v1/cases/{id}/tags` */
  key: string;
  method: string;
  path: string;
  params: { name: string; kind: string }[];
  query: { name: string; schema: Schema; required: boolean }[];
  body?: { mediaType: string; schema: Schema; required: boolean };
  /** The resource its successful answers describe (for harvesting ids). */
  kind?: string;
  responses: Map<number, DocumentedResponse>;
}

/** An ajv that checks values exactly as sent, with the document's formats (ours included). */
export function newAjv(): Ajv {
  // responses are checked exactly as sent: no coercion, no defaults
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  for (const [name, fn] of Object.entries(customFormats)) ajv.addFormat(name, fn);
  ajv.addFormat('binary', true);
  return ajv;
}

/** What a successful answer of the operation describes: the path's last literal segments. */
function operationKind(path: string): string | undefined {
  const params = pathParamKinds(path);
  const tail = path
    .slice(path.lastIndexOf('}') + 1)
    .split('/')
    .filter(Boolean);
  if (params.length === 0)
    return path
      .split('/')
      .filter((s) => s && s !== 'v1' && s !== 'admin')
      .join('/');
  return tail.length ? tail.join('/') : params[params.length - 1].kind;
}

const loaded = new WeakMap<App, Promise<{ doc: Schema; operations: Operation[] }>>();

/** The operations of the app's OpenAPI document (compiled once per app: ajv takes a second or two). */
export function loadOperations(app: App): Promise<{ doc: Schema; operations: Operation[] }> {
  let ops = loaded.get(app);
  if (!ops) {
    ops = load(app);
    loaded.set(app, ops);
  }
  return ops;
}

async function load(app: App): Promise<{ doc: Schema; operations: Operation[] }> {
  const res = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`GET /v1/openapi.json answered ${res.statusCode}`);
  const raw = res.json() as Schema;
  const doc = deref(raw, raw);
  const ajv = newAjv();
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Schema>(doc.paths)) {
    for (const [method, op] of Object.entries<Schema>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const responses = new Map<number, DocumentedResponse>();
      for (const [status, r] of Object.entries<Schema>(op.responses ?? {})) {
        const [mediaType, media] = Object.entries<Schema>(r.content ?? {})[0] ?? [];
        responses.set(Number(status), {
          mediaType,
          validate: mediaType?.includes('json') && media?.schema ? ajv.compile(media.schema) : undefined,
        });
      }
      const bodyMedia = Object.entries<Schema>(op.requestBody?.content ?? {})[0];
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        params: pathParamKinds(path),
        query: ((op.parameters ?? []) as Schema[])
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: p.schema ?? {}, required: !!p.required })),
        body: bodyMedia
          ? {
              mediaType: bodyMedia[0],
              schema: bodyMedia[1].schema ?? {},
              required: !!op.requestBody.required,
            }
          : undefined,
        kind: operationKind(path),
        responses,
      });
    }
  }
  return { doc, operations };
}

export interface Verdict {
  ok: boolean;
  problem?: string;
}

/** Checks one answer against the operation's documented responses. */
export function checkResponse(
  op: Operation,
  status: number,
  contentType: string,
  body: string,
): Verdict & { json?: unknown } {
  if (status >= 500) return { ok: false, problem: `server error ${status}` };
  const documented = op.responses.get(status);
  if (!documented) return { ok: false, problem: `undocumented status ${status}` };
  if (!documented.mediaType)
    return body.length ? { ok: false, problem: `status ${status} has a body` } : { ok: true };
  if (!documented.mediaType.includes('json')) {
    return contentType.split(';')[0].trim() === 'application/json'
      ? { ok: false, problem: `JSON body where ${documented.mediaType} is documented` }
      : { ok: true };
  }
  if (!contentType.includes('json'))
    return { ok: false, problem: `content-type ${contentType}, JSON documented` };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, problem: 'body is not JSON' };
  }
  if (documented.validate && !documented.validate(json)) {
    const errors = (documented.validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`)
      .join('; ');
    return { ok: false, problem: `body does not match the ${status} schema: ${errors}`, json };
  }
  return { ok: true, json };
}
