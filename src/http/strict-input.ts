import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { escapeUnsafe } from '../shared/escape-unsafe.ts';
import { declaredLimit } from './declared-limit.ts';
import { duplicateKeyPath } from './duplicate-keys.ts';
import { ApiError, type ErrorDetail, unreadContentEncoding, unreadContentType } from './errors.ts';
import { DEFAULT_MAX_ITEMS, strictSchema } from './strict-schema.ts';

/**
 * Input hardening written once for every route (issue: mass assignment, NUL bytes reaching
 * PostgreSQL, invalid UTF-8 silently stored as U+FFFD):
 * - every route's body, query string and path parameter schemas are made strict (strict-schema.ts)
 *   when the route is registered, so validation and the OpenAPI document both carry it;
 * - JSON bodies must be valid UTF-8 and are parsed with Fastify's prototype-poisoning protection;
 *   an empty body with a JSON content type is no body (a DELETE sent by a generic client);
 * - the raw URL must be valid percent-encoded UTF-8;
 * - no string (or object key) anywhere in a body, query string or path may hold a NUL character, another
 *   control character but tab, line feed and carriage return, or a
 *   lone surrogate (PostgreSQL refuses the first, JSON cannot round-trip the second), and JSON
 *   nesting is bounded.
 */

/**
 * Routes of the API (key or admin token) and of the client portal's API (a link's token, whose doc
 * promises the same validation): every parameter and field they take is declared.
 */
export const API_PREFIXES = ['/v1/', '/admin/', '/portal/api/'];
/**
 * Marks, in a route's config, that it declares no query string: the shared preValidation hook then
 * refuses any parameter. A flag read by a hook that runs anyway, not an empty schema: that added a
 * validator run per request on the hot path (GET /v1/ping), 3 to 7% of its CPU in one A/B pair run
 * both ways round on a noisy machine (bench/cpu-per-request.ts).
 */
const NO_QUERY_FLAG = 'vericaseTakesNoQuery';

function hookList<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

/**
 * The guard of a route without a body schema: no body, or an empty object or JSON null (what
 * generic clients send with a DELETE). A multipart upload is read by its route, not parsed here.
 */
function refuseBody(req: FastifyRequest, _reply: unknown, done: (err?: Error) => void): void {
  const body = req.body as unknown;
  if (body === undefined || body === null || Buffer.isBuffer(body)) {
    done();
    return;
  }
  if (typeof body === 'object' && !Array.isArray(body)) {
    const names = Object.keys(body);
    if (names.length === 0) {
      done();
      return;
    }
    const details = names.slice(0, 20).map((name) => ({
      path: name,
      message: `${name} is not allowed: this request takes no body`,
    }));
    done(new ApiError(400, details[0].message, details));
    return;
  }
  done(new ApiError(400, 'This request takes no body', [{ path: 'body', message: 'body is not allowed' }]));
}

export function noRequiredField(body: unknown): boolean {
  const b = body as { type?: unknown; required?: unknown[] };
  return b.type === 'object' && (!Array.isArray(b.required) || b.required.length === 0);
}

// A PUT replaces the whole resource: no body at all says what the client forgot, not "must be object"
function bodyRequired(req: FastifyRequest, _reply: unknown, done: (err?: Error) => void): void {
  if (req.body !== undefined) {
    done();
    return;
  }
  const message = 'body is required: a PUT replaces every field, and {} resets them all';
  done(new ApiError(400, message, [{ path: 'body', message }]));
}

// No body at all (or an empty one) is `{}`; a JSON `null` is a value, not an object, and stays a
// 400 "body must be object" as on every other route (it rotated a webhook's secret)
function emptyBodyIsObject(req: FastifyRequest, _reply: unknown, done: (err?: Error) => void): void {
  if (req.body === undefined) req.body = {};
  done();
}

/**
 * Why the JSON parser refused a body, said precisely (it only says "not valid JSON"): the syntax
 * error with its position, or, for valid JSON, the key it refuses because it would reach an
 * object's prototype (`__proto__`, or `constructor` holding `prototype`). Runs on refusals only.
 */
function jsonRefusal(text: string): { path: string; message: string } {
  try {
    // the parser skips a byte order mark; JSON.parse does not
    JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    const message = `The body is not valid JSON: ${(err as Error).message}`;
    return { path: 'body', message };
  }
  const key = /"__proto__"\s*:/.test(text) ? '__proto__' : 'constructor';
  return { path: key, message: `${key} is not allowed as a key: it could reach an object's prototype` };
}

/**
 * Most keys one object of a request may hold: as many as an array's items (DEFAULT_MAX_ITEMS), far
 * above any schema's (a free-form record takes DEFAULT_MAX_PROPERTIES).
 */
export const MAX_OBJECT_KEYS = DEFAULT_MAX_ITEMS;

/**
 * A body its parser refused, handed on as the body and refused by the first preValidation hook,
 * at the same point of the request. Fastify closes the connection after any error of a body
 * parser, though the body was read in full: a request pipelined behind it on the same socket was
 * then parsed and executed by Node, and its answer never sent (a client retrying it did it twice).
 */
class RefusedBody {
  readonly error: ApiError;
  constructor(error: ApiError) {
    this.error = error;
  }
}

function refuse(done: (err: Error | null, value?: unknown) => void, error: ApiError): void {
  done(null, new RefusedBody(error));
}

/** Deepest JSON nesting accepted (objects and arrays): ample for every documented body. */
export const MAX_JSON_DEPTH = 32;

export function registerStrictInput(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    if (!schema) return;
    // an API route that declares no query string or no body takes none: a parameter or a field sent
    // to it is refused like an unknown one, not ignored (a `permanent` sent in a DELETE's body
    // instead of its query string was a soft delete)
    const api = API_PREFIXES.some((p) => route.url.startsWith(p));
    if (api && !schema.querystring)
      route.config = { ...route.config, [NO_QUERY_FLAG]: true } as typeof route.config;
    if (api && !schema.body && route.method !== 'GET' && route.method !== 'HEAD') {
      // after validation: a bad path id or query parameter is the error to report first
      route.preHandler = [refuseBody, ...hookList(route.preHandler)];
    }
    // a body whose every field is optional may be left out (`force_review`, `generate-report`...):
    // none is `{}`, where the validator would say "body must be object". Not on a PUT: it replaces
    // the whole resource (`PUT /v1/workspace/settings` with `{}` resets every setting), so a client
    // that sent nothing by mistake must not reset anything
    const replaces = route.method === 'PUT' || (Array.isArray(route.method) && route.method.includes('PUT'));
    if (api && schema.body && noRequiredField(schema.body) && !replaces) {
      route.preValidation = [emptyBodyIsObject, ...hookList(route.preValidation)];
    }
    if (api && schema.body && replaces) {
      route.preValidation = [bodyRequired, ...hookList(route.preValidation)];
    }
    for (const part of ['body', 'querystring', 'params'] as const) {
      if (schema[part]) schema[part] = strictSchema(schema[part]);
    }
  });

  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  // Fastify's own text/plain parser handed the string to JSON routes, which refused it as "body must
  // be object" (400): no route reads text, so a text body is a 415. An empty one is no body, like
  // for JSON (a bodiless DELETE that still sends the header is fine).
  app.addContentTypeParser(
    'text/plain',
    { parseAs: 'buffer' },
    (req: FastifyRequest, body: Buffer, done: (err: Error | null, value?: unknown) => void) => {
      if (body.length === 0) return done(null, undefined);
      // in the words of every other unread Content-Type (the route says what it reads)
      refuse(done, new ApiError(415, ...unreadContentType(req)));
    },
  );
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer' },
    (req: FastifyRequest, body: Buffer, done: (err: Error | null, value?: unknown) => void) => {
      // an empty body is no body: a route that needs one says so through its schema
      if (body.length === 0) return done(null, undefined);
      const encoded = unreadContentEncoding(req);
      if (encoded) return refuse(done, encoded);
      const charset = otherCharset(req);
      if (charset) return refuse(done, charset);
      if (!isUtf8(body)) {
        return refuse(
          done,
          new ApiError(400, 'The body is not valid UTF-8', [
            { path: 'body', message: 'body is not valid UTF-8' },
          ]),
        );
      }
      const text = body.toString('utf8');
      parseJson(req, text, (err: Error | null, value: unknown) => {
        if (err) {
          const refusal = jsonRefusal(text);
          return refuse(done, new ApiError(400, refusal.message, [refusal]));
        }
        const repeated = typeof value === 'object' && value !== null ? duplicateKeyPath(text) : null;
        if (repeated) {
          const message = `${repeated} is given more than once: send it once`;
          return refuse(done, new ApiError(400, message, [{ path: repeated, message }]));
        }
        done(null, value);
      });
    },
  );

  // callback hooks: they run on every request, and a promise each would be paid by every request
  app.addHook('onRequest', (req, _reply, done) => {
    const url = req.raw.url ?? '';
    if (!url.includes('%') || decoded(url) !== null) return done();
    done(
      new ApiError(400, 'The URL is not valid percent-encoded UTF-8', [
        { path: 'url', message: 'url is not valid percent-encoded UTF-8' },
      ]),
    );
  });

  app.addHook('preValidation', (req, _reply, done) => {
    // the first preValidation hook of every route (a route's own run after the application's)
    if (req.body instanceof RefusedBody) return done(req.body.error);
    // an upload's body is read by its handler, after this hook: its coding is refused here (a
    // request without a body has nothing coded)
    if (req.headers['content-encoding'] !== undefined && hasBody(req)) {
      const encoded = unreadContentEncoding(req);
      if (encoded) return done(encoded);
    }
    if (req.headers['content-type'] !== undefined && hasBody(req) && contentTypeRepeated(req)) {
      const message = 'content-type is given more than once: send one';
      return done(new ApiError(400, message, [{ path: 'content-type', message }]));
    }
    const details: ErrorDetail[] = [];
    const schema = req.routeOptions.schema;
    inspect(req.params, 'params', 0, details, schema?.params);
    inspect(req.query, 'querystring', 0, details, schema?.querystring);
    if (
      details.length === 0 &&
      (req.routeOptions.config as unknown as Record<string, unknown>)[NO_QUERY_FLAG]
    ) {
      for (const name in req.query as Record<string, unknown>) {
        details.push({ path: name, message: `${name} is not a supported parameter` });
      }
    }
    if (details.length === 0) repeatedParameters(req, details);
    if (details.length === 0) {
      decimalNumbers(req.query, req.routeOptions.schema?.querystring, details);
      decimalNumbers(req.params, req.routeOptions.schema?.params, details);
    }
    if (req.body !== undefined && !Buffer.isBuffer(req.body))
      inspect(req.body, 'body', 0, details, schema?.body);
    done(details.length ? new ApiError(400, details[0].message, details) : undefined);
  });
}

/**
 * Node keeps the first of several Content-Type headers and drops the others: the body was read as
 * JSON when `application/json` came first and refused (415) the other way round. Ambiguous, like two
 * API keys or two Idempotency-Keys: refused.
 */
function contentTypeRepeated(req: FastifyRequest): boolean {
  const raw = req.raw.rawHeaders;
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length === 12 && raw[i].toLowerCase() === 'content-type' && ++seen > 1) return true;
  }
  return false;
}

function hasBody(req: FastifyRequest): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * A declared query parameter given more than once (`?limit=5&limit=6`) arrives as an array: said
 * so, where the validator would say `limit must be integer` of a value the client sent as one.
 */
function repeatedParameters(req: FastifyRequest, details: ErrorDetail[]): void {
  const query = req.query as Record<string, unknown> | undefined;
  if (!query) return;
  for (const name in query) {
    if (!Array.isArray(query[name])) continue;
    const declared = declaredParameter(req.routeOptions.schema?.querystring, name);
    if (declared === undefined || acceptsArray(declared)) continue;
    details.push({ path: name, message: `${name} is given more than once: send it once` });
  }
}

const DECIMAL_INTEGER = /^-?[0-9]+$/;
const DECIMAL_NUMBER = /^-?([0-9]+(\.[0-9]*)?|\.[0-9]+)$/;

/**
 * A number in the URL is written in decimal digits. The validator's coercion reads a string with
 * `Number()`, which also takes `0x10`, `0b11`, `1e1`, ` 5` and reads an empty value as 0 (`limit=`
 * was "limit must be >= 1"): each is refused here, naming the parameter.
 */
function decimalNumbers(values: unknown, schema: unknown, details: ErrorDetail[]): void {
  if (!values || typeof values !== 'object') return;
  for (const [name, value] of Object.entries(values)) {
    // plain digits are right for any type: the schema (its pattern properties compiled as regular
    // expressions) is looked up only for a value that could be a number written otherwise
    if (typeof value !== 'string' || DECIMAL_INTEGER.test(value)) continue;
    const type = (declaredParameter(schema, name) as { type?: unknown } | undefined)?.type;
    if (type === 'integer') {
      details.push({ path: name, message: `${name} must be an integer written in decimal digits` });
    } else if (type === 'number' && !DECIMAL_NUMBER.test(value)) {
      details.push({ path: name, message: `${name} must be a number written in decimal digits` });
    }
  }
}

/** The schema of a query parameter: a property, or a pattern (list filters: `created_at.gt`). */
function declaredParameter(querystring: unknown, name: string): unknown {
  const q = querystring as
    | { properties?: Record<string, unknown>; patternProperties?: Record<string, unknown> }
    | undefined;
  if (q?.properties && Object.hasOwn(q.properties, name)) return q.properties[name];
  for (const [pattern, schema] of Object.entries(q?.patternProperties ?? {})) {
    if (new RegExp(pattern, 'u').test(name)) return schema;
  }
  return undefined;
}

function acceptsArray(schema: unknown): boolean {
  const s = schema as { type?: unknown; anyOf?: unknown[]; oneOf?: unknown[] };
  if (s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'))) return true;
  return [...(s.anyOf ?? []), ...(s.oneOf ?? [])].some(acceptsArray);
}

/**
 * The URL percent-decoded, or null when it is not valid percent-encoded UTF-8. The decoded value is
 * returned, not only computed: the bundler's minifier takes `decodeURIComponent` for a pure function
 * and dropped a call whose result went unused, and the bundled service then let malformed query
 * strings through (test/server-bundle.test.ts runs this check on the bundle).
 */
function decoded(url: string): string | null {
  try {
    return decodeURIComponent(url);
  } catch {
    return null;
  }
}

/** `body` + `companies`, `0` → `companies[0]`; the prefix names the request part only at the top. */
function join(path: string, key: string | number, top: boolean): string {
  if (typeof key === 'number') return `${top ? '' : path}[${key}]`;
  return top ? key : `${path}.${key}`;
}

/**
 * Control characters but tab, line feed and carriage return (C0, DEL and C1): no text a person types
 * holds them, and in a name they reach terminals (an escape sequence recolouring a log line), PDFs
 * and CSV exports (bad-input walk: `Acme\u0007\u001b[31mRED` was a company's name). C1 too: U+009B
 * is the one-character escape sequence introducer of 8-bit terminals.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its job
const CONTROL = /[\u0001-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** U+FFFE and U+FFFF: Unicode's noncharacters of the basic plane, never text (a byte-order probe). */
const NONCHARACTER = /[\uFFFE\uFFFF]/;

/**
 * The two bidirectional overrides (LRO, RLO): they make text show in another order than it is
 * written, which is what they are for (`invoice\u202Efdp.exe` shows as `invoiceexe.pdf`), and no
 * name needs them: right-to-left names are laid out by their letters, and the embeddings and
 * isolates a word processor may insert are left alone.
 */
const BIDI_OVERRIDE = /[\u202D\u202E]/;
/**
 * The same two written as HTML character references (`&#x202E;`, `&#8238;`): a note's or a
 * template's HTML is decoded when shown or rendered, where the override takes effect (a template's
 * `&#x202E;0001 EUR` rendered as `RUE 1000` in a document to sign).
 */
const BIDI_OVERRIDE_REFERENCE = /&#(?:x0*202[de](?![0-9a-f])|0*823[78](?![0-9]))/i;

function badString(s: string): string | undefined {
  if (s.includes('\u0000')) return 'must not contain a NUL character (\\u0000)';
  const control = CONTROL.exec(s);
  if (control)
    return `must not contain a control character (\\u${control[0].charCodeAt(0).toString(16).padStart(4, '0')})`;
  const nonCharacter = NONCHARACTER.exec(s);
  if (nonCharacter)
    return `must not contain a noncharacter (\\u${nonCharacter[0].charCodeAt(0).toString(16)}): it is no text`;
  const override = BIDI_OVERRIDE.exec(s);
  if (override)
    return `must not contain a bidirectional override (\\u${override[0].charCodeAt(0).toString(16)}): it shows text in another order than it is written`;
  const reference = BIDI_OVERRIDE_REFERENCE.exec(s);
  if (reference)
    return `must not contain a bidirectional override (${reference[0]}): it shows text in another order than it is written`;
  if (!(s as string & { isWellFormed(): boolean }).isWellFormed())
    return 'must not contain a lone surrogate (invalid Unicode)';
  return undefined;
}

/**
 * Walks a request part (`schema` is its schema, read only to word a refusal; `trail` the keys from
 * its top to `value`, kept in one array pushed and popped along the walk).
 */
function inspect(
  value: unknown,
  path: string,
  depth: number,
  details: ErrorDetail[],
  schema: unknown,
  trail: (string | number)[] = [],
): void {
  if (details.length >= 20) return;
  if (typeof value === 'string') {
    const bad = badString(value);
    if (bad) details.push({ path, message: `${path} ${bad}` });
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (depth >= MAX_JSON_DEPTH) {
    details.push({ path, message: `${path} is nested too deeply (at most ${MAX_JSON_DEPTH} levels)` });
    return;
  }
  const top = depth === 0;
  if (Array.isArray(value)) {
    // no schema takes more items (DEFAULT_MAX_ITEMS): refused here, before the validator, which
    // makes one error per wrong item of the whole array (a second of work for 2.5 million)
    if (value.length > DEFAULT_MAX_ITEMS) {
      details.push({ path, message: `${path} must have at most ${sizeLimit(schema, trail, 'array')} items` });
      return;
    }
    for (let i = 0; i < value.length; i++) {
      trail.push(i);
      inspect(value[i], join(path, i, top), depth + 1, details, schema, trail);
      trail.pop();
    }
    return;
  }
  const keys = Object.keys(value);
  // no schema takes more fields (DEFAULT_MAX_PROPERTIES for a free-form record, fewer declared
  // elsewhere): refused before walking them, or 100,000 keys cost a fifth of a second of walking
  // and validating (one error object per key) before their 400
  if (keys.length > MAX_OBJECT_KEYS) {
    details.push({ path, message: `${path} must have at most ${sizeLimit(schema, trail, 'object')} fields` });
    return;
  }
  for (const key of keys) {
    const v = (value as Record<string, unknown>)[key];
    const bad = badString(key);
    if (bad) {
      // the refused name is not echoed as it is: written with escapes, the character it holds
      // cannot act on the page or terminal that shows the error
      const shown = join(path, escapeUnsafe(key), top);
      details.push({ path: shown, message: `the name of ${shown} ${bad}` });
    } else {
      trail.push(key);
      inspect(v, join(path, key, top), depth + 1, details, schema, trail);
      trail.pop();
    }
  }
}

/**
 * The limit to state for a value refused past the shared cap: the field's own, from the route's
 * schema (`individuals` takes 500, a case's tags 100, metadata 200 fields), or the cap when the
 * schema states none below it (1,001 individuals read "at most 1000 items" of a field that takes 500).
 */
function sizeLimit(schema: unknown, trail: (string | number)[], kind: 'array' | 'object'): number {
  const cap = kind === 'array' ? DEFAULT_MAX_ITEMS : MAX_OBJECT_KEYS;
  return Math.min(cap, declaredLimit(schema, trail, kind) ?? cap);
}

/**
 * JSON is UTF-8 (RFC 8259): a body declared in another charset (`charset=utf-16`, `latin1`) was read
 * as UTF-8 all the same, its text silently changed or refused as invalid. A 415 naming it instead.
 */
function otherCharset(req: FastifyRequest): ApiError | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(String(req.headers['content-type'] ?? ''));
  if (!match) return null;
  const charset = match[1].toLowerCase();
  // ASCII is UTF-8's first 128 characters
  if (['utf-8', 'utf8', 'us-ascii', 'ascii'].includes(charset)) return null;
  const message = `Content-Type charset ${escapeUnsafe(match[1], 40)} is not read here: send the JSON body as UTF-8 (charset=utf-8, or no charset)`;
  return new ApiError(415, message, [{ path: 'content-type', message }]);
}
