/**
 * What the OpenAPI document gets once fastify-swagger has collected the routes: operationIds, the
 * declared tags, named component schemas, and the security of the operator endpoints. Runs once per
 * process (fastify-swagger caches the result), never per request. It also marks a JSON body whose
 * every field is optional as optional, as the service takes it.
 */
import { CHECK_TYPE_DEFINITIONS } from '../../checks/registry.ts';
import { API_PREFIXES, noRequiredField } from '../strict-input.ts';
import { attachExamples } from './attach-examples.ts';
import { namedSchemas } from './components.ts';
import { declareConditionalWrites } from './conditional-writes.ts';
import { CUSTOM_FORMATS } from './description.ts';
import { OPERATION_DESCRIPTIONS } from './descriptions.ts';
import { nameSchemas } from './name-schemas.ts';
import { OPERATION_IDS } from './operation-ids.ts';
import { TAGS } from './tags.ts';
import { webhookDocs } from './webhooks.ts';

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'] as const;

type Operation = Parameters<typeof attachExamples>[0] & {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  summary?: string;
  description?: string;
};

export function finishDocument(doc: Record<string, unknown>): Record<string, unknown> {
  const paths = doc.paths as Record<string, Record<string, Operation>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      op.operationId ??= OPERATION_IDS[`${method.toUpperCase()} ${path}`];
      if (!op.description && op.operationId) op.description = OPERATION_DESCRIPTIONS[op.operationId];
      if (path.startsWith('/admin/')) op.security = [{ AdminBearer: [] }];
      if (method === 'post' && path.startsWith('/v1/')) declareIdempotency(op as IdempotentOperation);
      declareConditionalWrites(method, path, op as IdempotentOperation);
      declarePlumbingHeaders(path, op as IdempotentOperation);
      if (method !== 'put' && API_PREFIXES.some((p) => path.startsWith(p))) optionalBody(op, doc);
      attachExamples(op);
    }
  }
  const checkTags = CHECK_TYPE_DEFINITIONS.map((def) => ({
    name: `Checks: ${def.type}`,
    description: `The ${def.type} check: create it on its target, read its data, review it.`,
  }));
  const at = TAGS.findIndex((t) => t.name === 'Checks') + 1;
  const tags = [...TAGS.slice(0, at), ...checkTags, ...TAGS.slice(at)];
  const named = nameSchemas(doc, namedSchemas()).doc;
  for (const item of Object.values(named.paths as Record<string, Record<string, Operation>>)) {
    for (const method of METHODS) if (item[method]) describeSuccess(item[method] as OperationResponses);
  }
  const components = named.components as Record<string, Record<string, unknown>>;
  const { webhooks, contextSchema } = webhookDocs();
  return {
    ...named,
    'x-formats': CUSTOM_FORMATS,
    tags,
    webhooks,
    components: {
      ...components,
      schemas: { ...components.schemas, WebhookDeliveryContext: contextSchema },
      headers: { ...components.headers, ...PLUMBING_HEADERS },
      securitySchemes: {
        ...components.securitySchemes,
        AdminBearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'The operator token set in VERICASE_ADMIN_TOKEN (the /admin endpoints only).',
        },
      },
    },
  };
}

type Response = { description?: string; content?: Record<string, { schema?: Schema }> };
type Schema = { $ref?: string; properties?: Record<string, Schema>; items?: Schema };

const refName = (schema: Schema | undefined) => schema?.$ref?.split('/').pop() ?? null;

/**
 * A JSON body whose every field is optional may be left out (src/http/strict-input.ts: none is
 * `{}`), except on a PUT: the document says so (`requestBody.required: false`), where fastify-swagger
 * marks every body required and a generated client had to send `{}` to `generate-report`.
 */
function optionalBody(
  op: { requestBody?: { required?: boolean; content?: Record<string, unknown> } },
  doc: Record<string, unknown>,
): void {
  const media = op.requestBody?.content?.['application/json'] as
    | { schema?: Record<string, unknown> }
    | undefined;
  let schema = media?.schema;
  const ref = typeof schema?.$ref === 'string' ? schema.$ref : null;
  if (ref?.startsWith('#/components/schemas/')) {
    const components = (doc.components as { schemas?: Record<string, Record<string, unknown>> } | undefined)
      ?.schemas;
    schema = components?.[ref.slice('#/components/schemas/'.length)];
  }
  if (op.requestBody && schema && noRequiredField(schema)) op.requestBody.required = false;
}

type OperationResponses = { summary?: string; responses?: Record<string, Response> };

/**
 * A success answer's description in words, where fastify-swagger writes "Default Response" for
 * every response whose schema has none (the error answers have theirs): what the operation gives
 * back, named by its schema (`OK: the Case`, `A page of Case items, with the pagination`).
 */
function describeSuccess(op: OperationResponses): void {
  for (const [status, res] of Object.entries(op.responses ?? {})) {
    if (res.description !== 'Default Response') continue;
    const schema = res.content?.['application/json']?.schema;
    const name = refName(schema);
    const what = name ? `the ${name}` : op.summary ? `the answer of "${op.summary}"` : 'the answer';
    const item = refName(schema?.properties?.data?.items);
    res.description =
      status === '204'
        ? 'Done: nothing to return'
        : schema?.properties?.data && schema.properties.pagination
          ? `A page of ${item ? `${item} ` : ''}items, with the pagination`
          : `${status === '201' ? 'Created' : status === '202' ? 'Accepted' : 'OK'}: ${what}`;
  }
}

type IdempotentOperation = {
  parameters?: Record<string, unknown>[];
  requestBody?: { content?: Record<string, unknown> };
  responses?: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
};

const header = (description: string, type: 'string' | 'integer', required = false) => ({
  description,
  required,
  schema: { type },
});

/** The headers the shared plumbing puts on answers (src/http/app.ts), under `components.headers`. */
const PLUMBING_HEADERS = {
  RequestId: header(
    'The id of this request, as the service logs it: quote it when reporting a problem.',
    'string',
    true,
  ),
  RateLimitLimit: header('Requests a workspace may make per minute (sent when a limit is set).', 'integer'),
  RateLimitRemaining: header('Requests left in the current minute.', 'integer'),
  RateLimitReset: header('Seconds until the count starts again.', 'integer'),
  RetryAfter: header('Seconds to wait before retrying.', 'integer', true),
  RetryAfterOutage: header(
    'Seconds to wait, when the outage clears by itself (a list still loading).',
    'integer',
  ),
};
const headerRef = (name: keyof typeof PLUMBING_HEADERS) => ({ $ref: `#/components/headers/${name}` });

/**
 * Declares those headers on each response, so a generated client can read them: the request id on
 * every answer; on the API's, the rate limit's counters (when a limit is configured) and, on a 429
 * and on a 503 that clears by itself, when to come back.
 */
function declarePlumbingHeaders(path: string, op: IdempotentOperation): void {
  const api = path.startsWith('/v1/');
  for (const [status, res] of Object.entries(op.responses ?? {})) {
    const headers: Record<string, unknown> = { 'x-request-id': headerRef('RequestId') };
    if (api) {
      headers['x-ratelimit-limit'] = headerRef('RateLimitLimit');
      headers['x-ratelimit-remaining'] = headerRef('RateLimitRemaining');
      headers['x-ratelimit-reset'] = headerRef('RateLimitReset');
    }
    if (status === '429') headers['retry-after'] = headerRef('RetryAfter');
    if (status === '503') headers['retry-after'] = headerRef('RetryAfterOutage');
    res.headers = { ...headers, ...res.headers };
  }
}

/**
 * Every POST under /v1 takes an `Idempotency-Key` (src/http/idempotency.ts): declared, so the
 * reference page shows it and a generated client can send it as a typed header parameter. An
 * answer that is no JSON (a PDF) is not replayed: it does not declare it. An upload's "body" is its
 * file: the same bytes under the same name.
 */
function declareIdempotency(op: IdempotentOperation): void {
  // an answer that is not JSON (a rendered PDF) is not kept to replay
  const success = Object.entries(op.responses ?? {}).filter(([status]) => status.startsWith('2'));
  if (success.some(([, res]) => res.content && !res.content['application/json'])) return;
  op.parameters = [
    ...(op.parameters ?? []),
    {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'A key of your choice (at most 255 characters) making a retry safe: the first request with it is carried out and its answer kept; a retry with the same key and body gets that answer again without writing anything (header `idempotent-replayed: true`); the same key with another body, or while the first is running, is a 409. A key is kept 24 hours (VERICASE_IDEMPOTENCY_RETENTION_HOURS); after them a retry is a new request. A blank key, or the header sent twice with different values, is a 400.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    },
  ];
  for (const [status, res] of Object.entries(op.responses ?? {})) {
    if (!status.startsWith('2')) continue;
    res.headers = {
      ...res.headers,
      'idempotent-replayed': {
        description:
          'true when this answer is the one kept for an earlier request with the same Idempotency-Key',
        schema: { type: 'string', enum: ['true'] },
      },
    };
  }
}
