/**
 * How a /v1 write is named in the audit log, from its method and route pattern (Fastify's, e.g.
 * `/v1/cases/:id/reviews`): the route's literal segments with collections in the singular, then the
 * verb. A POST to a collection creates (`case.review.create`), a named operation is its own verb
 * (`check.aml.force_review`, `webhook_log.retry`, `template.run`), PATCH and PUT update
 * (`case.update`), DELETE deletes (`api_key.delete`).
 */
const IRREGULAR: Readonly<Record<string, string>> = {
  companies: 'company',
  activities: 'activity',
  properties: 'property',
};
/** Literals that are neither a plural collection nor an operation. */
const AS_IS = new Set(['settings', 'sessions', 'status', 'metadata', 'screening', 'company_data']);
/** Operations that follow another literal rather than a resource id (`/templates/run`). */
const STANDALONE_OPERATIONS = new Set(['run', 'reload', 'upload', 'review']);
/** An operation named verb first (`add_files`, `set_relevant`), plural object or not. */
const VERB_FIRST = /^(add|set|send|refresh|force|generate|share|complete|rotate)_/;

const norm = (s: string) => s.replace(/-/g, '_');
const isParam = (s: string) => s.startsWith(':') || s.startsWith('$');

function singular(segment: string): string {
  const s = norm(segment);
  if (IRREGULAR[s]) return IRREGULAR[s];
  if (AS_IS.has(s)) return s;
  if (s.endsWith('ies')) return `${s.slice(0, -3)}y`;
  if (s.endsWith('s') && !s.endsWith('ss')) return s.slice(0, -1);
  return s;
}

function splitRoute(route: string): string[] {
  return route
    .replace(/^\/v1\/?/, '')
    .split('/')
    .filter(Boolean);
}

/** Whether segment i of the route is an operation on what comes before it. */
function isOperation(segments: string[], i: number): boolean {
  const s = norm(segments[i]);
  if (isParam(s) || AS_IS.has(s)) return false;
  if (STANDALONE_OPERATIONS.has(s) || VERB_FIRST.test(s)) return true;
  if (s.endsWith('s') && !s.endsWith('ss')) return false;
  return i > 0 && isParam(segments[i - 1]);
}

export function auditAction(method: string, route: string): string {
  const segments = splitRoute(route);
  const lastIndex = segments.length - 1;
  const m = method.toUpperCase();
  const literals = (upTo: number) =>
    segments
      .slice(0, upTo)
      .filter((s) => !isParam(s))
      .map(singular);
  let parts: string[];
  let verb: string;
  if (m !== 'DELETE' && lastIndex >= 0 && isOperation(segments, lastIndex)) {
    parts = literals(lastIndex);
    verb = norm(segments[lastIndex]);
  } else {
    parts = literals(segments.length);
    verb = m === 'DELETE' ? 'delete' : m === 'POST' ? 'create' : 'update';
  }
  return [...parts, verb].join('.');
}

/**
 * The resource a write is about: the one its first path parameter names (type from the literal
 * before it: `/v1/checks/aml/:id/review` is the check), or for a creation at the top level
 * (`POST /v1/cases`) the created resource, whose id is in the response body.
 */
export function auditResource(
  route: string,
  params: Record<string, unknown>,
  createdId: string | null,
): { type: string | null; id: string | null } {
  const segments = splitRoute(route);
  const first = segments.findIndex((s) => s.startsWith(':'));
  const type = segments[0] && !isParam(segments[0]) ? singular(segments[0]) : null;
  if (first > 0) {
    const value = params[segments[first].slice(1)];
    if (typeof value === 'string') return { type, id: value };
  }
  return { type: createdId ? type : null, id: createdId };
}
