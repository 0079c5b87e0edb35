import type { FastifyInstance } from 'fastify';

/** How often a closing server closes the kept-alive connections that went idle since. */
const SWEEP_MS = 50;

/**
 * Closes a listening app: no new connections, the requests in flight finish, then every connection
 * closes. Node's `server.close()` closes the connections idle at that moment only; a connection
 * whose response was still being written (a file download, its last bytes already with the client)
 * goes idle just after and would then be held open until the keep-alive timeout (72 s by default),
 * past the process's shutdown deadline. So idle connections are closed every SWEEP_MS while the
 * server closes, and whatever is still open after `graceMs` (a slow upload) is cut.
 */
export async function closeServer(app: FastifyInstance, graceMs: number): Promise<void> {
  const server = app.server;
  const sweep = setInterval(() => server.closeIdleConnections(), SWEEP_MS);
  const cut = setTimeout(() => server.closeAllConnections(), graceMs);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
    clearTimeout(cut);
  }
}
