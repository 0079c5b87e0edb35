import type { FastifyInstance } from 'fastify';

// a portal link carries its token in the fragment (`…/portal/#token=vcp_…`)
const PORTAL_TOKEN = /#token=vcp_/;

/**
 * A copy of `value` with every portal link (a string holding a portal token) replaced by null;
 * `value` itself when it holds none (nothing copied then).
 */
export function withoutPortalLinks(value: unknown): unknown {
  if (typeof value === 'string') return PORTAL_TOKEN.test(value) ? null : value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = withoutPortalLinks(v);
      if (r !== v) changed = true;
      return r;
    });
    return changed ? out : value;
  }
  if (value !== null && typeof value === 'object' && !(value instanceof Date) && !Buffer.isBuffer(value)) {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const r = withoutPortalLinks(v);
      if (r !== v) changed = true;
      out[k] = r;
    }
    return changed ? out : value;
  }
  return value;
}

/**
 * A console viewer reads everything, but a live portal link (a signature check's
 * `signature_link`, an id_verification check's `verification_url`) is the client's key to act: a
 * viewer holding it could decline a signature or submit an identity capture in the client's name.
 * Their answers carry null in its place. Reviewers, admins and API keys see the links as before.
 * A callback hook that returns at once for every other principal.
 */
export function registerViewerRedaction(app: FastifyInstance): void {
  app.addHook('preSerialization', (request, _reply, payload, done) => {
    if (request.principal?.role !== 'viewer') return done(null, payload);
    done(null, withoutPortalLinks(payload));
  });
}
