import type { Role } from '../http/auth.ts';

/**
 * Who may call which /v1 route from the console, as data. Roles are ordered: an admin may do
 * everything a reviewer may, a reviewer everything a viewer may. API keys act as `admin`.
 *
 * A request is matched against RULES in order on its method and its route pattern (Fastify's,
 * e.g. `/v1/webhooks/:id`); the first rule that matches gives the least role needed. Without a
 * match: reads (GET, HEAD, OPTIONS) need `viewer`, writes need `reviewer`, so a new route is
 * never open to viewers for writing by omission.
 */
export const ROLES: readonly Role[] = ['viewer', 'reviewer', 'admin'];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function roleAllows(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

export const READ_METHODS: readonly string[] = ['GET', 'HEAD', 'OPTIONS'];

export interface PermissionRule {
  /** `read` (GET/HEAD/OPTIONS), `write` (everything else) or `any`. */
  methods: 'read' | 'write' | 'any';
  /** A route pattern; a trailing `/*` also matches the pattern itself and everything below it. */
  route: string;
  role: Role;
  why: string;
}

export const RULES: readonly PermissionRule[] = [
  // a registry fetch is a GET, but each one counts against the workspace's monthly limit (a paid
  // quota): spending it is case work, not reading
  {
    methods: 'read',
    route: '/v1/company-data/fetch/:search_ref',
    role: 'reviewer',
    why: 'a registry fetch counts against the monthly limit',
  },
  // running a case template on a case is case work, though it sits under /templates
  { methods: 'write', route: '/v1/templates/run', role: 'reviewer', why: 'case work' },
  // workspace configuration: admins only
  { methods: 'write', route: '/v1/workspace/*', role: 'admin', why: 'workspace settings' },
  { methods: 'write', route: '/v1/templates/*', role: 'admin', why: 'case templates' },
  { methods: 'write', route: '/v1/document_types/*', role: 'admin', why: 'document types' },
  { methods: 'write', route: '/v1/document-types/*', role: 'admin', why: 'document types' },
  { methods: 'write', route: '/v1/document-templates/*', role: 'admin', why: 'document templates' },
  { methods: 'write', route: '/v1/client-portals/*', role: 'admin', why: 'client portal settings' },
  { methods: 'write', route: '/v1/users/*', role: 'admin', why: 'users' },
  { methods: 'write', route: '/v1/custom-properties/*', role: 'admin', why: 'custom property definitions' },
  // tagging a case is case work (and may create a tag); renaming or deleting a tag changes every case
  // that carries it, as any other workspace configuration
  { methods: 'write', route: '/v1/tags/:id', role: 'admin', why: 'renaming or deleting a tag' },
  // reporting fraud is case work; taking a person off the workspace's fraud list is a second pair of
  // eyes' call (a wrong withdrawal lets the next fraudulent application through unflagged)
  {
    methods: 'write',
    route: '/v1/fraud-database/reports/:id',
    role: 'admin',
    why: 'withdrawing a fraud report',
  },
  // webhooks carry their signing secrets, and keys are credentials: admins only, reads included
  { methods: 'any', route: '/v1/webhooks/*', role: 'admin', why: 'webhooks' },
  { methods: 'any', route: '/v1/webhook-logs/*', role: 'admin', why: 'webhook deliveries' },
  { methods: 'any', route: '/v1/api-keys/*', role: 'admin', why: 'API keys' },
];

function matches(rule: PermissionRule, method: string, route: string): boolean {
  const isRead = READ_METHODS.includes(method);
  if (rule.methods === 'read' && !isRead) return false;
  if (rule.methods === 'write' && isRead) return false;
  if (rule.route.endsWith('/*')) {
    const base = rule.route.slice(0, -2);
    return route === base || route.startsWith(`${base}/`);
  }
  return route === rule.route;
}

/** The least role a route needs. */
export function requiredRole(method: string, route: string): Role {
  const rule = RULES.find((r) => matches(r, method, route));
  if (rule) return rule.role;
  return READ_METHODS.includes(method) ? 'viewer' : 'reviewer';
}
