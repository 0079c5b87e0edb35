import type { App } from '../../src/app-context.ts';

/** One route of the running app: method and Fastify path (`/v1/cases/:caseId/relations`). */
export interface RouteEntry {
  method: string;
  url: string;
  /** Path parameter names, in path order (`*` for a wildcard). */
  params: string[];
}

// a tree line of printRoutes({ commonPrefix: false }): indentation, branch, segment, (METHODS)
const LINE = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?(?: \{.*\})?$/;
// a parameter segment; nodes shared by routes with different names print as `:id|:caseId`
const PARAM = /:[A-Za-z0-9_]+(?:\|:[A-Za-z0-9_]+)*|\*/g;

/**
 * Every route of a built app, hidden ones (schema.hide) included, read from the router itself:
 * Fastify has no route listing API once the app is built (an onRoute hook must precede the
 * routes), so this parses `printRoutes()` and asks `findRoute` for each route's parameter names
 * (the printed tree merges different names on one node). A line the parser does not understand
 * throws, so a change of the print format fails loudly instead of silently listing fewer routes.
 */
export function routeTable(app: App): RouteEntry[] {
  const out: RouteEntry[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    if (!line.trim()) continue;
    const m = LINE.exec(line);
    if (!m) throw new Error(`routeTable: cannot parse printRoutes line ${JSON.stringify(line)}`);
    const depth = m[1].length / 4;
    stack.length = depth;
    stack.push(m[2]);
    if (!m[3]) continue; // an inner node of the tree that is no route itself
    const printed = stack.join('');
    for (const method of m[3].split(', ')) out.push(resolve(app, method, printed));
  }
  return out;
}

function resolve(app: App, method: string, printed: string): RouteEntry {
  const tokens: string[] = [];
  const probe = printed.replace(PARAM, (p) => {
    const token = `p${tokens.length}x${Math.random().toString(36).slice(2, 8)}`;
    tokens.push(p === '*' ? '*' : token);
    return token;
  });
  const found = app.findRoute({ method: method as 'GET', url: probe });
  // the printed tree drops the static part before a wildcard (swagger-ui's /docs/static/*):
  // such a route is listed as printed; it takes no id, so nothing below needs its exact path
  if (!found && printed.endsWith('*')) return { method, url: printed, params: ['*'] };
  if (!found) throw new Error(`routeTable: ${method} ${printed} is printed but not found`);
  const names = new Map<string, string>();
  for (const [name, value] of Object.entries((found.params ?? {}) as Record<string, string>)) {
    names.set(value, name);
  }
  const params: string[] = [];
  let i = 0;
  const url = printed.replace(PARAM, (p) => {
    const token = tokens[i++];
    if (p === '*') {
      params.push('*');
      return '*';
    }
    const name = names.get(token);
    if (!name) throw new Error(`routeTable: no parameter name for ${p} in ${method} ${printed}`);
    params.push(name);
    return `:${name}`;
  });
  return { method, url, params };
}

/** What kind of id a path parameter is, from the segment before it (`/v1/tags/:id` → tag). */
const KIND_BY_SEGMENT: Record<string, string> = {
  cases: 'case',
  relations: 'relation',
  companies: 'company',
  individuals: 'individual',
  checks: 'check',
  notes: 'note',
  tags: 'tag',
  templates: 'template',
  webhooks: 'webhook',
  'webhook-logs': 'webhookLog',
  files: 'file',
  workspaces: 'workspace',
  keys: 'apiKey',
  'api-keys': 'apiKey',
  users: 'user',
  'custom-properties': 'customPropertyEntity',
  'document-orders': 'documentOrder',
  document_types: 'documentType',
  fetch: 'searchRef',
  reports: 'fraudReport',
  'client-portals': 'clientPortal',
  'document-templates': 'documentTemplate',
  versions: 'templateVersion',
};

export function paramKinds(route: RouteEntry): (string | undefined)[] {
  const segs = route.url.split('/');
  return segs.flatMap((seg, i) => {
    if (!seg.startsWith(':')) return [];
    const prev = segs[i - 1];
    // /checks/<type>/:id: a check of that type (hyphenated aliases name the same type)
    if (segs[i - 2] === 'checks' && !prev.startsWith(':')) return [`check:${prev.replace(/-/g, '_')}`];
    // /custom-properties/:target_entity/:key: a custom property key of that entity kind
    if (segs[i - 2] === 'custom-properties') return ['customPropertyKey'];
    return [KIND_BY_SEGMENT[prev]];
  });
}
