/**
 * The GET behind `data pull`, on node:http/https rather than fetch: Node's bundled undici crashes the
 * whole process with an uncatchable assertion when a server closes the connection (`Connection: close`,
 * FIN) while a response body is paused by back-pressure (nodejs/undici#5360), which is exactly what a
 * download written to a slower disk does. node:http reports such a close as an ordinary stream end.
 */
import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';

export interface DownloadResponse {
  status: number;
  header(name: string): string | null;
  body: IncomingMessage;
  /** The address that answered, after redirects. */
  url: string;
}

const MAX_REDIRECTS = 5;

/** GET `url`, following up to five redirects; rejects on network errors and on `signal`. */
export async function openDownload(
  url: string,
  signal: AbortSignal,
  headers: Record<string, string>,
): Promise<DownloadResponse> {
  let current = new URL(url);
  for (let hop = 0; ; hop++) {
    const res = await request(current, signal, headers);
    const location = res.headers.location;
    if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location) {
      res.resume(); // discard the redirect's own body so its socket is released
      if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
      current = new URL(location, current);
      continue;
    }
    return {
      status: res.statusCode ?? 0,
      header: (name) => {
        const v = res.headers[name.toLowerCase()];
        return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
      },
      body: res,
      url: current.href,
    };
  }
}

function request(url: URL, signal: AbortSignal, headers: Record<string, string>): Promise<IncomingMessage> {
  const get = url.protocol === 'https:' ? httpsGet : url.protocol === 'http:' ? httpGet : null;
  if (!get) return Promise.reject(new Error(`unsupported protocol ${url.protocol}`));
  return new Promise((resolve, reject) => {
    const req = get(url, { headers, signal }, resolve);
    req.on('error', reject);
  });
}
