import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { storableText } from '../shared/storable-text.ts';
import { guardedLookup, isPrivateAddress, urlHost } from './address-guard.ts';

export interface PostResult {
  /** 0 when no response arrived (refused, timeout, connection error). */
  statusCode: number;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
  durationMs: number;
  error: string | null;
}

const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16 });
const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16 });

/**
 * One POST: no redirect followed (a 3xx is a failure like any non-2xx), the whole exchange bounded
 * by `timeoutMs`, at most `bodyCap` bytes of the response kept (the rest is drained unread).
 */
export function postJson(
  target: string,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; bodyCap: number; allowPrivate: () => boolean },
): Promise<PostResult> {
  const started = performance.now();
  const done = (r: Omit<PostResult, 'durationMs'>): PostResult => ({
    ...r,
    durationMs: Math.round(performance.now() - started),
  });
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return Promise.resolve(done(failure('invalid url')));
  }
  const host = urlHost(url);
  if (net.isIP(host) && !opts.allowPrivate() && isPrivateAddress(host)) {
    return Promise.resolve(done(failure(`refused: ${host} is a non-public address`)));
  }
  const isHttps = url.protocol === 'https:';
  const lib = isHttps ? https : http;
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (r: Omit<PostResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(r));
    };
    const req = lib.request(
      url,
      {
        method: 'POST',
        agent: isHttps ? httpsAgent : httpAgent,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(opts.allowPrivate) as never,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          if (kept >= opts.bodyCap) return;
          const part = chunk.subarray(0, opts.bodyCap - kept);
          chunks.push(part);
          kept += part.length;
        });
        const complete = (error: string | null) =>
          finish({
            statusCode: res.statusCode ?? 0,
            responseHeaders: flattenHeaders(res.headers),
            // as the attempt log can store it: a NUL (a binary or compressed answer) made the whole
            // batch of outcomes fail to record, and the delivery stayed `sending`, sent again forever
            responseBody: storableText(Buffer.concat(chunks).toString('utf8')),
            error,
          });
        res.on('end', () => complete(null));
        res.on('close', () =>
          complete(timedOut ? timeoutMessage : res.complete ? null : 'response incomplete'),
        );
        res.on('error', () => undefined); // reported by 'close'
      },
    );
    let timedOut = false;
    const timeoutMessage = `timed out after ${opts.timeoutMs} ms`;
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy(new Error(timeoutMessage));
    }, opts.timeoutMs);
    req.on('error', (err) => finish(failure(errorMessage(err))));
    req.end(body);
  });
}

function failure(error: string): Omit<PostResult, 'durationMs'> {
  return { statusCode: 0, responseHeaders: null, responseBody: null, error };
}

function errorMessage(err: Error & { code?: string }): string {
  if (err.message.startsWith('timed out') || err.name === 'PrivateAddressError') return err.message;
  return err.code ? `${err.code}: ${err.message}` : err.message;
}

function flattenHeaders(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
