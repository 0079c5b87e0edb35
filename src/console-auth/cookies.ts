import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'vericase_session';

/** One cookie's value from the Cookie header (no dependency: we read exactly one name). */
export function readCookie(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return value || null;
  }
  return null;
}

/** Secure when the request came over TLS (or through a trusted proxy that says https). */
function flags(request: FastifyRequest): string {
  return `; Path=/; HttpOnly; SameSite=Strict${request.protocol === 'https' ? '; Secure' : ''}`;
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  expiresAt: Date,
): void {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  reply.header('set-cookie', `${SESSION_COOKIE}=${token}${flags(request)}; Max-Age=${maxAge}`);
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('set-cookie', `${SESSION_COOKIE}=${flags(request)}; Max-Age=0`);
}
