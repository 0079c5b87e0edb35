import { type IncomingMessage, maxHeaderSize, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { closeGracefully } from './connection-guard.ts';
import { errorBody } from './errors.ts';

/** Codes of the statuses only Node's HTTP parser answers (the error body's table has the others). */
const EARLY_CODES: Record<number, string> = {
  408: 'REQUEST_TIMEOUT',
  431: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
};

/** Status and message for an error Node's HTTP server raised before any route saw the request. */
function describe(code: string | undefined): { status: number; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        message: `Request line and headers are too large: together (the URL with its query string included) they must fit in ${maxHeaderSize} bytes`,
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'Chunk extensions of the request body are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        message: 'Request timeout: the request (headers and body) was not received in time',
      };
    default:
      return { status: 400, message: `Malformed HTTP request${code ? ` (${code})` : ''}` };
  }
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP server refused itself (headers too large,
 * timeouts, a malformed request) gets the API's error body, then the connection is closed (the
 * parser cannot read anything after such an error). Replaces Fastify's default, whose body is not
 * the error body.
 */
export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Socket) {
  // a reset connection has no one to answer; a second error on a closing one has nothing to add
  if (err.code === 'ECONNRESET' || socket.destroyed || socket.writableEnded) {
    if (!socket.destroyed && err.code === 'ECONNRESET') socket.destroy();
    return;
  }
  const { status, message } = describe(err.code);
  this.log.debug({ err, status }, 'client error answered by the HTTP server');
  // a response already under way cannot be followed by another one on the same socket
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({
    ...errorBody(status, message),
    ...(EARLY_CODES[status] ? { code: EARLY_CODES[status] } : {}),
  });
  socket.write(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'content-type: application/json; charset=utf-8\r\n' +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      'connection: close\r\n\r\n' +
      body,
  );
  closeGracefully(socket);
}

/**
 * Node's `checkExpectation` listener: a request whose `Expect` header asks for anything but
 * `100-continue` (the only expectation HTTP/1.1 defines) got Node's bare 417 with no body. It now
 * gets the API's error body naming the header; its body was never read, so the connection closes.
 */
export function answerFailedExpectation(req: IncomingMessage, res: ServerResponse) {
  const expect = String(req.headers.expect ?? '').slice(0, 100);
  const message = `The Expect header "${expect}" cannot be met: only "100-continue" is supported`;
  const body = JSON.stringify(errorBody(417, message, [{ path: 'expect', message }], 'EXPECTATION_FAILED'));
  res.writeHead(417, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  res.end(body);
}
