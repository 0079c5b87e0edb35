import { RegistryError } from '../provider.ts';
import type { RegistryVendor } from '../vendors.ts';

/**
 * The one way registry adapters talk HTTP: Node's built-in fetch with a timeout per attempt, bounded
 * retries for what may heal by itself (5xx, 429, timeouts, connection errors — never other 4xx, which
 * would fail the same way again), and every failure turned into a `RegistryError` so that the API
 * answers 502/503 and never 500.
 */
export interface HttpClientOptions {
  vendor: RegistryVendor;
  /** Base URL of the registry's API, without a trailing slash; request paths are appended to it. */
  baseUrl: string;
  /** Timeout of one attempt (connection, headers and body), in ms. */
  timeoutMs: number;
  /** Attempts after the first one; 0 = no retry. */
  retries: number;
  /** Headers sent with every request (e.g. the registry's authentication). */
  headers?: Record<string, string>;
}

export interface RequestOptions {
  /** The caller's signal: once it aborts, the request stops and is not retried. */
  signal: AbortSignal;
  query?: Record<string, string | number | undefined>;
  /** What a 404 means for this request: the record is gone (`not_found`) or simply no answer (`null`). */
  on404?: 'not_found' | 'null';
  /** Non-2xx statuses whose JSON body the caller reads itself (e.g. Brreg's 410 for a deleted unit). */
  passStatuses?: readonly number[];
  accept?: string;
}

export interface JsonAnswer {
  status: number;
  body: unknown;
}

export interface BinaryAnswer {
  bytes: Buffer;
  contentType: string;
}

export interface HttpClient {
  /** GET a JSON document; null only for a 404 with `on404: 'null'`. */
  getJson(path: string, options: RequestOptions): Promise<JsonAnswer | null>;
  /** GET a binary document (e.g. a PDF); redirects are followed. */
  getBinary(path: string, options: RequestOptions): Promise<BinaryAnswer>;
}

/** A registry answer bigger than this is not a company record: refuse to buffer it. */
const MAX_BODY_BYTES = 20 * 1024 * 1024;
const BACKOFF_MS = [100, 300, 700];
/** A registry's Retry-After is honoured, but never beyond this: the caller is waiting. */
const MAX_RETRY_AFTER_MS = 2_000;

/** Outcome of one attempt: an answer to hand back, or a failure that may be retried. */
type Attempt<T> = { ok: T } | { retry: string; waitMs?: number };

export function createHttpClient(opts: HttpClientOptions): HttpClient {
  const fail = (kind: RegistryError['kind'], message: string) =>
    new RegistryError(opts.vendor, kind, message);

  function urlOf(path: string, query: RequestOptions['query']): string {
    const url = new URL(opts.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.toString();
  }

  async function run<T>(
    path: string,
    options: RequestOptions,
    accept: string,
    read: (res: Response) => Promise<T>,
  ): Promise<T | null> {
    const url = urlOf(path, options.query);
    let lastProblem = 'no attempt made';
    for (let attempt = 0; attempt <= opts.retries; attempt++) {
      if (options.signal.aborted) throw cancelled(options.signal);
      const outcome = await once(url, options, accept, read);
      if ('ok' in outcome) return outcome.ok;
      lastProblem = outcome.retry;
      if (attempt < opts.retries)
        await pause(outcome.waitMs ?? BACKOFF_MS[Math.min(attempt, 2)], options.signal);
    }
    const tries = opts.retries + 1;
    throw fail('unavailable', `${lastProblem} (${tries} attempt${tries > 1 ? 's' : ''})`);
  }

  async function once<T>(
    url: string,
    options: RequestOptions,
    accept: string,
    read: (res: Response) => Promise<T>,
  ): Promise<Attempt<T | null>> {
    const signal = AbortSignal.any([options.signal, AbortSignal.timeout(opts.timeoutMs)]);
    try {
      const res = await fetch(url, {
        signal,
        headers: { accept, 'user-agent': 'vericase company-data', ...opts.headers },
      });
      if (res.ok || options.passStatuses?.includes(res.status)) return { ok: await read(res) };
      const detail = await errorDetail(res);
      await res.body?.cancel().catch(() => {});
      if (res.status >= 500) return { retry: `answered ${res.status}${detail}` };
      if (res.status === 429) return { retry: `answered 429 (rate limited)`, waitMs: retryAfter(res) };
      if (res.status === 404 && options.on404 === 'null') return { ok: null };
      if (res.status === 404 && options.on404 === 'not_found')
        throw fail('not_found', `no record at ${path(url)}`);
      if (res.status === 401 || res.status === 403) {
        throw fail('refused', `refused our credentials (${res.status})${detail}`);
      }
      throw fail('refused', `refused the request (${res.status})${detail}`);
    } catch (err) {
      if (err instanceof RegistryError) throw err;
      // The caller gave up (its own deadline or the client went away): stop here, no retry.
      if (options.signal.aborted) throw cancelled(options.signal);
      if (signal.aborted) return { retry: `did not answer within ${opts.timeoutMs} ms` };
      return { retry: `could not be reached: ${reason(err)}` };
    }
  }

  const readJson = async (res: Response): Promise<JsonAnswer> => {
    const text = await readText(res);
    try {
      return { status: res.status, body: JSON.parse(text) };
    } catch {
      throw fail('bad_answer', `answered ${res.status} with a body that is not JSON`);
    }
  };

  async function readText(res: Response): Promise<string> {
    const bytes = await readBytes(res);
    return bytes.toString('utf8');
  }

  async function readBytes(res: Response): Promise<Buffer> {
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > MAX_BODY_BYTES) throw fail('bad_answer', `answer of ${declared} bytes is too large`);
    const bytes = Buffer.from(await res.arrayBuffer());
    if (bytes.length > MAX_BODY_BYTES)
      throw fail('bad_answer', `answer of ${bytes.length} bytes is too large`);
    return bytes;
  }

  function cancelled(signal: AbortSignal): RegistryError {
    return fail(
      'unavailable',
      `the call was cancelled before the registry answered (${reason(signal.reason)})`,
    );
  }

  return {
    getJson: (path, options) => run(path, options, options.accept ?? 'application/json', readJson),
    async getBinary(path, options) {
      const answer = await run(path, options, options.accept ?? 'application/octet-stream', async (res) => ({
        bytes: await readBytes(res),
        contentType: res.headers.get('content-type')?.split(';')[0]?.trim() || 'application/octet-stream',
      }));
      if (!answer) throw fail('not_found', `no document at ${path}`);
      return answer;
    },
  };
}

/** The registry's own error message, when it gives one, to make a 502 actionable. */
async function errorDetail(res: Response): Promise<string> {
  try {
    const text = (await res.text()).slice(0, 2000);
    const body = JSON.parse(text) as Record<string, unknown>;
    const message =
      body.erreur ??
      body.message ??
      body.error ??
      (body.errors as { title?: string; error?: string }[])?.[0]?.title;
    return typeof message === 'string' && message ? `: ${message.slice(0, 200)}` : '';
  } catch {
    return '';
  }
}

function retryAfter(res: Response): number | undefined {
  const seconds = Number(res.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : undefined;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function path(url: string): string {
  return new URL(url).pathname;
}

function reason(err: unknown): string {
  const e = err as
    | { cause?: { code?: string; message?: string }; message?: string; name?: string }
    | undefined;
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? e?.name ?? String(err);
}
