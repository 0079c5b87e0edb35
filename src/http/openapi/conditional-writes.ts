/**
 * The conditional writes of src/http/conditional.ts, in the OpenAPI document: the `ETag` a check
 * and a case answer with, and the `If-Match` their review writes (and a case's update) take, with
 * the 412 it may bring. Declared here rather than as Fastify header schemas: those would validate
 * (and, strict, refuse) every other header of the request.
 */

type Operation = {
  parameters?: Record<string, unknown>[];
  responses?: Record<string, { headers?: Record<string, unknown> }>;
};

/** Reads that answer the resource's version. */
const VERSIONED_READS = [/^get \/v1\/checks\/[^/]+\/\{id\}$/, /^get \/v1\/cases\/\{id\}$/];

/** Writes that take If-Match; `answersVersion`: their 2xx is the resource itself, with its new ETag. */
const CONDITIONAL_WRITES: { route: RegExp; what: 'check' | 'case'; answersVersion: boolean }[] = [
  { route: /^patch \/v1\/checks\/[^/]+\/\{id\}\/review$/, what: 'check', answersVersion: true },
  { route: /^patch \/v1\/checks\/aml\/\{id\}\/hits\/review$/, what: 'check', answersVersion: true },
  { route: /^post \/v1\/cases\/\{id\}\/reviews$/, what: 'case', answersVersion: false },
  { route: /^patch \/v1\/cases\/\{id\}$/, what: 'case', answersVersion: true },
];

const ETAG = {
  description:
    "The resource's version (a strong entity tag: its `updated_at`, quoted). Send it back as `If-Match` on its review, so that a change made by someone else since it was read is a 412 rather than silently replaced.",
  schema: { type: 'string', example: '"2026-01-02T03:04:05.678Z"' },
};

const ifMatch = (what: 'check' | 'case') => ({
  name: 'If-Match',
  in: 'header',
  required: false,
  description: `The ${what}'s ETag as it was read (GET ${what === 'check' ? '/v1/checks/{type}/{id}' : '/v1/cases/{id}'}, or the answer of a write): when the ${what} has changed since, the answer is a 412 (PRECONDITION_FAILED) and nothing is written; read it again and decide on what it now is. \`*\` matches any version. Without the header the write is made whatever changed meanwhile. A value that is not \`*\` or quoted entity tags is a 400 naming the header.`,
  schema: { type: 'string' },
});

function addEtag(op: Operation): void {
  for (const [status, res] of Object.entries(op.responses ?? {})) {
    if (status.startsWith('2')) res.headers = { ...res.headers, etag: ETAG };
  }
}

export function declareConditionalWrites(method: string, path: string, op: Operation): void {
  const route = `${method} ${path}`;
  if (VERSIONED_READS.some((r) => r.test(route))) addEtag(op);
  const write = CONDITIONAL_WRITES.find((w) => w.route.test(route));
  if (!write) return;
  op.parameters = [...(op.parameters ?? []), ifMatch(write.what)];
  if (write.answersVersion) addEtag(op);
}
