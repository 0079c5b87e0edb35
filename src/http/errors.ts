import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RegistryError, registryApiError } from '../company-data/provider.ts';
import { outageOf } from '../db/unavailable.ts';
import { OutageLog } from './outage-log.ts';
import { FORMAT_MESSAGES, PATTERN_MESSAGES } from './schema-formats.ts';

/** Error codes of the error body, by HTTP status. */
const CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

export interface ErrorDetail {
  path: string;
  message: string;
}

/**
 * An error the API reports to its caller as-is: status, message, optional field details and, where
 * the spec names one (`COMPANY_DATA_LIMIT_REACHED`), an explicit code instead of the status's.
 */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly details: ErrorDetail[] | undefined;
  readonly code: string | undefined;
  /** Sent as `retry-after` (seconds): a 503 that clears by itself says when to come back. */
  retryAfterSeconds: number | undefined;
  /**
   * A refusal for an outage of something the service depends on (the file storage): logged as the
   * database's outages are (src/http/outage-log.ts), the first of an episode with this text and the
   * error's cause, the others counted, instead of not at all.
   */
  outage: { log: string; level: 'warn' | 'error' } | undefined;
  constructor(statusCode: number, message: string, details?: ErrorDetail[], code?: string) {
    super(message);
    this.statusCode = statusCode;
    this.details = details;
    this.code = code;
  }
}

export const badRequest = (message: string, path?: string) =>
  new ApiError(400, message, path ? [{ path, message }] : undefined);
/**
 * A 404. `path` names the request's field that referred to it (a body's `individual_id`...), so a
 * caller sending several ids learns which one is unknown; a path's own id needs none.
 */
export const notFound = (what: string, path?: string) =>
  new ApiError(
    404,
    `${what} not found`,
    path ? [{ path, message: `${path}: ${what} not found` }] : undefined,
  );
/**
 * A value that must be unique in the workspace is taken (a tag's label): a 400, as the spec lists
 * business-rule violations and the reference documents these operations (201/200, 400, 404 only),
 * with code CONFLICT so that a caller can still tell it apart. (A taken case external_id is a 409:
 * issue 2 says so, docs/compatibility.md.)
 */
export const duplicate = (message: string, path: string) =>
  new ApiError(400, message, [{ path, message }], 'CONFLICT');
export const conflict = (message: string, path?: string) =>
  new ApiError(409, message, path ? [{ path, message }] : undefined);

export function errorBody(statusCode: number, message: string, details?: ErrorDetail[], code?: string) {
  return {
    status_code: statusCode,
    timestamp: new Date().toISOString(),
    code: code ?? CODES[statusCode] ?? (statusCode >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST'),
    message,
    ...(details?.length ? { details } : {}),
  };
}

/** `/companies/0/country` + missing property → `companies[0].country`. */
function jsonPointerToPath(prefix: string, pointer: string, extra?: string): string {
  const parts = pointer.split('/').filter(Boolean);
  if (extra) parts.push(extra);
  let out = '';
  for (const raw of parts) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(part)) out += `[${part}]`;
    else out += out ? `.${part}` : part;
  }
  if (prefix === 'body') return out || 'body';
  return out || prefix;
}

interface AjvLikeError {
  instancePath?: string;
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
  /** Set on an error about an object's key (a `propertyNames` rule): the key. */
  propertyName?: string;
}

/** A refused key as an answer shows it: quoted, long ones cut. */
const shownKey = (key: string) => JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key);

/**
 * Fields only the server sets. A body naming one is refused like any unknown field; the message says
 * why, so a client that read a resource and sent it back knows what to drop.
 */
const SERVER_OWNED = new Set([
  'id',
  'workspace_id',
  'case_id',
  'created_at',
  'updated_at',
  'deleted_at',
  'last_activity_at',
  'status',
  'result',
  'review',
  'flags',
  'reviewer_has_actions',
  'contact_has_actions',
  'type',
  'is_relevant',
  'checks',
]);

function unknownFieldMessage(context: string, path: string, name: string): string {
  if (context === 'querystring') return `${path} is not a supported parameter`;
  if (SERVER_OWNED.has(name))
    return `${path} is not allowed: it is set by the server and cannot be written here`;
  return `${path} is not allowed: it is not a field of this request`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Size limits as the service words them. */
const LIMIT_WORDS: Readonly<Record<string, (limit: number) => string>> = {
  minLength: (n) => `must have at least ${plural(n, 'character', 'characters')}`,
  maxLength: (n) => `must have at most ${plural(n, 'character', 'characters')}`,
  minItems: (n) => (n === 1 ? 'must not be empty: give at least one item' : `must have at least ${n} items`),
  maxItems: (n) => `must have at most ${plural(n, 'item', 'items')}`,
  minProperties: (n) => `must have at least ${plural(n, 'field', 'fields')}`,
  maxProperties: (n) => `must have at most ${plural(n, 'field', 'fields')}`,
};

/** Errors read for one answer: enough to say what is wrong, few enough to read them quickly. */
const MAX_VALIDATION_ERRORS = 100;

export function validationDetails(context: string, allErrors: AjvLikeError[]): ErrorDetail[] {
  // the branches of one value's union are reported next to each other, so the first errors keep
  // them together; reading every error made this quadratic (20,000 wrong items: 7 s of one thread)
  const errors = allErrors.slice(0, MAX_VALIDATION_ERRORS);
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  // a union of literals fails once per literal: one message listing them ("must be one of")
  const constsAt = new Map<string, unknown[]>();
  for (const e of errors) {
    if (e.keyword !== 'const') continue;
    const path = jsonPointerToPath(context, e.instancePath ?? '', undefined);
    constsAt.set(path, [...(constsAt.get(path) ?? []), e.params?.allowedValue]);
  }
  const wrappers = new Set(['anyOf', 'oneOf', 'if']);
  // another error inside the value, or at its place (those `here` accepts): a union's other branch
  // said more than a type error of this branch would
  const failedBesides = (pointer: string, here: (o: AjvLikeError) => boolean) =>
    errors.some((o) => {
      if (wrappers.has(o.keyword)) return false;
      const at = o.instancePath ?? '';
      return at.startsWith(`${pointer}/`) || (at === pointer && here(o));
    });
  // "must be null" is the nullable branch of a union when the other branch failed; alone (a field
  // that takes null only) it is the error to report
  const otherBranchFailed = (pointer: string) =>
    failedBesides(pointer, (o) => !(o.keyword === 'type' && o.params?.type === 'null'));
  // a branch that accepted the value's type failed on something else: its message, not the others'
  const valueBranchFailed = (pointer: string) =>
    pointer !== '' && failedBesides(pointer, (o) => o.keyword !== 'type');
  // a formatted or patterned value refused for its length too (formats get a maxLength from
  // src/http/strict-schema.ts: `country=ZZZ`): the format's words say what the value must be
  const shaped = new Set(
    errors.filter((e) => e.keyword === 'format' || e.keyword === 'pattern').map((e) => e.instancePath ?? ''),
  );
  for (const e of errors) {
    // anyOf/oneOf wrappers repeat what their branches said; so does propertyNames ("property name
    // must be valid") after the rule its key broke
    if (wrappers.has(e.keyword) || e.keyword === 'propertyNames') continue;
    if ((e.keyword === 'maxLength' || e.keyword === 'minLength') && shaped.has(e.instancePath ?? ''))
      continue;
    const extra =
      e.keyword === 'required'
        ? String(e.params?.missingProperty)
        : e.keyword === 'additionalProperties'
          ? String(e.params?.additionalProperty)
          : undefined;
    const path = jsonPointerToPath(context, e.instancePath ?? '', extra);
    let message: string;
    if (e.keyword === 'required') message = `${path} is required`;
    else if (e.keyword === 'additionalProperties')
      message = unknownFieldMessage(context, path, String(e.params?.additionalProperty));
    else if (e.keyword === 'enum')
      message = `${path} must be one of: ${(e.params?.allowedValues as unknown[] | undefined)?.join(', ')}`;
    else if (e.keyword === 'const') {
      const allowed = constsAt.get(path) ?? [e.params?.allowedValue];
      message =
        allowed.length === 1
          ? `${path} must be ${allowed[0]}`
          : `${path} must be one of: ${allowed.join(', ')}`;
    } else if (e.keyword === 'type' && e.params?.type === 'null') {
      if (otherBranchFailed(e.instancePath ?? '')) continue; // nullable branch
      message = `${path} must be null`;
    } else if (e.keyword === 'type' && valueBranchFailed(e.instancePath ?? '')) {
      // a union's branch of another type: the branch of the value's type said what is wrong (a
      // custom property's array over the 1,000-item limit was reported as "must be string")
      continue;
    } else if (e.keyword === 'pattern' && PATTERN_MESSAGES[String(e.params?.pattern)])
      message = `${path} ${PATTERN_MESSAGES[String(e.params?.pattern)]}`;
    // an empty string where text is needed: said as the service's own checks say it (Ajv's "must
    // NOT have fewer than 1 characters" read as no other message did)
    else if (e.keyword === 'minLength' && e.params?.limit === 1) message = `${path} must not be empty`;
    // the other size limits in the same words (Ajv's "must NOT have more than 180 characters")
    else if (LIMIT_WORDS[e.keyword] && typeof e.params?.limit === 'number')
      message = `${path} ${LIMIT_WORDS[e.keyword](e.params.limit)}`;
    else if (e.keyword === 'format' && FORMAT_MESSAGES[String(e.params?.format)])
      message = `${path} ${FORMAT_MESSAGES[String(e.params?.format)]}`;
    else message = `${path} ${e.message ?? 'is invalid'}`;
    // a key of the object broke a rule: said of that key (Ajv reports it at the object)
    if (e.propertyName !== undefined)
      message = `${path}: the key ${shownKey(e.propertyName)}${message.slice(path.length)}`;
    const key = `${path}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push({ path, message });
  }
  return details;
}

const ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export function registerErrorHandling(app: FastifyInstance): void {
  const outages = new OutageLog(app.log);
  app.setErrorHandler((thrown: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) => {
    // A company registry failure is the API's 400/404/502/503 (never a 500), wherever it is thrown.
    const error = thrown instanceof RegistryError ? registryApiError(thrown) : thrown;
    if (error instanceof ApiError) {
      if (error.outage)
        outages.refused(request.log, error.outage.log, error.cause ?? error, error.outage.level);
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply
        .status(error.statusCode)
        .send(errorBody(error.statusCode, error.message, error.details, error.code));
    }
    const fe = error as FastifyError;
    if (fe.validation) {
      const details = validationDetails(fe.validationContext ?? 'body', fe.validation as AjvLikeError[]);
      const message = details[0]?.message ?? fe.message;
      return reply.status(400).send(errorBody(400, message, details));
    }
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send(errorBody(415, ...unreadContentType(request)));
    }
    // the limit, and where a file goes instead ("Request body is too large" said neither)
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const limit = request.routeOptions.bodyLimit ?? request.server.initialConfig.bodyLimit ?? 0;
      return reply
        .status(413)
        .send(
          errorBody(
            413,
            `The request body is larger than this endpoint takes (${Math.round(limit / 1024 / 1024)} MB)${request.url.startsWith('/v1/') ? '; files are sent with POST /v1/files/upload (20 MB)' : ''}`,
          ),
        );
    }
    const status = fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 600 ? fe.statusCode : 500;
    // a passing outage (PostgreSQL restarting or unreachable, a full disk): 503, come back later
    const outage = status === 500 ? outageOf(error) : null;
    if (outage) {
      outages.refused(request.log, outage.log, error);
      reply.header('retry-after', String(outage.retryAfterSeconds));
      return reply.status(503).send(errorBody(503, outage.message));
    }
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(status).send(errorBody(status, 'An unexpected error occurred'));
    }
    const headers = (fe as { headers?: Record<string, string> }).headers;
    if (headers) reply.headers(headers);
    return reply.status(status).send(errorBody(status, fe.message));
  });

  /**
   * `GET /v1/checks/{id}`, a first guess: that path is `DELETE` (and `POST /v1/checks/{type}`), and
   * "it takes POST, DELETE" told nothing of how to read a check.
   */
  const CHECK_BY_ID = /^\/v1\/checks\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/?$/i;
  const READ_A_CHECK =
    '. A check is read with its type in the path: GET /v1/checks/{type}/{id} (GET /v1/checks?case_id=… lists them with their types)';

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    // a path that exists under other methods: 405 with Allow (RFC 9110), so a client that sent PUT
    // for PATCH learns what to send rather than that the resource does not exist
    const allowed = ROUTE_METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
    if (allowed.length && !allowed.includes(request.method)) {
      reply.header('allow', allowed.join(', '));
      const hint = request.method === 'GET' && CHECK_BY_ID.test(path) ? READ_A_CHECK : '';
      return reply
        .status(405)
        .send(
          errorBody(
            405,
            `${request.method} is not a method of ${path}: it takes ${allowed.join(', ')}${hint}`,
          ),
        );
    }
    reply.status(404).send(errorBody(404, `Route ${request.method} ${path} not found`));
  });
}

/**
 * A body of a type no parser reads (a form, XML...): Fastify's own message is a bare "Unsupported
 * Media Type". Ours names the header, what it said and what the route reads: multipart/form-data
 * for an upload (its schema `consumes` it), JSON anywhere else.
 */
export function unreadContentType(request: FastifyRequest): [string, { path: string; message: string }[]] {
  const given =
    String(request.headers['content-type'] ?? '')
      .split(';')[0]
      .trim() || 'none';
  const consumes = (request.routeOptions.schema as { consumes?: string[] } | undefined)?.consumes;
  const wanted = consumes?.includes('multipart/form-data')
    ? 'multipart/form-data, with the file in the form field "file"'
    : 'application/json';
  const message = `Content-Type ${given} is not read here: send the body as ${wanted}`;
  return [message, [{ path: 'content-type', message }]];
}

/**
 * A request body sent compressed (`Content-Encoding: gzip`...) was read as if it were plain: gzip
 * bytes were "not valid UTF-8", and a plain body labelled gzip was taken. No route decodes a content
 * coding, so any but `identity` is a 415 (RFC 9110 §8.4.1) naming the header; null when none is set.
 */
export function unreadContentEncoding(request: FastifyRequest): ApiError | null {
  const given = request.headers['content-encoding'];
  if (given === undefined) return null;
  const codings = String(given)
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter(Boolean);
  if (codings.every((c) => c === 'identity')) return null;
  const message = `Content-Encoding ${String(given).slice(0, 100)} is not read here: send the body uncompressed`;
  return new ApiError(415, message, [{ path: 'content-encoding', message }]);
}
