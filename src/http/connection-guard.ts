import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * How long a connection we close keeps reading (and dropping) what its client still sends. Closing
 * a socket with unread bytes makes the kernel answer with a reset, which can destroy our response
 * before the client has read it (the reason servers "linger" on close; Go waits 500 ms, nginx up to
 * 5 s between reads). The client normally closes first, once it has the response.
 */
export const LINGER_MS = 2_000;

/**
 * Ends our side of the connection after what was written, keeps draining the client's side until
 * it closes or `LINGER_MS` passed, then destroys the socket.
 */
export function closeGracefully(socket: Socket): void {
  if (socket.destroyed) return;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  // the client closed its side: it has read the response, there is nothing more to wait for
  socket.once('end', () => socket.destroy());
  socket.end();
  socket.resume();
}

type ClosingSocket = Socket & { destroySoon?: () => void };

/**
 * Early refusals never leave a connection unusable. A response sent before its request body was
 * fully received (413 over a limit, 415 by content, 401 before an upload, a body that fails to
 * parse...) would otherwise leave the unread rest of the body on a kept-alive connection: when the
 * body was being consumed (multipart) Node does not drain it, and the client's next request on that
 * socket waits until the keep-alive timeout. Such a response therefore carries `connection: close`:
 * the rest of the body is read and dropped while the connection closes after the response (a
 * client may send gigabytes: draining it to keep the connection would cost more than a new one).
 */
export function registerConnectionGuard(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const raw = request.raw;
    // `complete` is undefined on an injected request (app.inject): it has no connection to keep
    if (raw.complete === undefined) return done(null, payload);
    // A request without a body has nothing left to read, but Node marks it complete only once its
    // stream has ended, which a response written at once (a 404, a 405, the docs page) comes
    // before: such a request is complete too, or every one of those answers closed its connection.
    if (raw.complete || !declaresBody(raw.headers)) return done(null, payload);
    reply.header('connection', 'close');
    // stop whatever consumed the body (the multipart parser) and drop the rest as it arrives
    raw.unpipe();
    raw.resume();
    // with `connection: close`, Node ends the socket after the response by calling destroySoon(),
    // which destroys it as soon as the response is handed to the kernel: linger instead
    const socket = raw.socket as ClosingSocket;
    if (typeof socket.destroySoon === 'function') socket.destroySoon = () => closeGracefully(socket);
    done(null, payload);
  });
}

/** Whether a request's headers announce a body (RFC 9112 6.3: a length above 0, or chunks). */
function declaresBody(headers: IncomingHttpHeaders): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}
