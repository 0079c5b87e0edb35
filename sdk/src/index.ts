/**
 * The vericase API client: `openapi-fetch` over the types generated from the service's OpenAPI
 * document (src/schema.d.ts, `npm run sdk:generate` in the service's repository). Every call is typed
 * by path and method: its parameters, its body and each of its answers.
 *
 *   const vc = createVericaseClient({ baseUrl: 'http://localhost:3000', apiKey });
 *   const { data, error } = await vc.POST('/v1/cases', { body: { name: 'Acme onboarding' } });
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema.d.ts';

export type { components, paths, webhooks } from './schema.d.ts';

type Schemas = components['schemas'];
export type Case = Schemas['Case'];
export type CaseDetailed = Schemas['CaseDetailed'];
export type Company = Schemas['Company'];
export type Individual = Schemas['Individual'];
export type CaseRelation = Schemas['CaseRelation'];
export type Check = Schemas['Check'];
export type AmlCheck = Schemas['AmlCheck'];
export type EkycCheck = Schemas['EkycCheck'];
export type Webhook = Schemas['Webhook'];
export type ApiError = Schemas['ErrorBody'];

export type VericaseClient = Client<paths>;

export interface VericaseClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The service's address, e.g. `https://kyb.example.com` (no `/v1`: paths carry it). */
  baseUrl: string;
  /** The workspace's API key, sent as `X-SERVICE-API-KEY`. */
  apiKey: string;
}

export function createVericaseClient({
  baseUrl,
  apiKey,
  headers,
  ...rest
}: VericaseClientOptions): VericaseClient {
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...headerRecord(headers), 'X-SERVICE-API-KEY': apiKey },
    ...rest,
  });
}

type HeaderValues = Exclude<ClientOptions['headers'], undefined>;

/**
 * The default headers in every form the option's type allows (a `Headers`, `[name, value]` pairs or
 * a record) as a record: spreading a `Headers` gave nothing and pairs gave index keys, so an
 * `Idempotency-Key` given so was silently dropped. A key header of the caller's is replaced by `apiKey`.
 */
function headerRecord(headers: HeaderValues | undefined): Record<string, unknown> {
  if (!headers) return {};
  const entries: [string, unknown][] =
    headers instanceof Headers
      ? [...headers.entries()]
      : Array.isArray(headers)
        ? headers.map(([name, value]) => [name, value] as [string, unknown])
        : Object.entries(headers);
  return Object.fromEntries(entries.filter(([name]) => name.toLowerCase() !== 'x-service-api-key'));
}

/** A list answer of the API: its items and where the page stands. */
interface Page<T> {
  data: T[];
  pagination: { page: number; limit: number; count: number };
}

/**
 * Every item of a paginated list, page after page: `fetchPage(n)` returns page n (1-based), e.g.
 * `(page) => vc.GET('/v1/cases', { params: { query: { page, limit: 100 } } })`. Stops at the last page.
 */
export async function* allPages<T>(
  fetchPage: (page: number) => Promise<{ data?: Page<T>; error?: unknown }>,
): AsyncGenerator<T> {
  for (let page = 1; ; page++) {
    const { data, error } = await fetchPage(page);
    if (error || !data) throw new VericaseError(error);
    yield* data.data;
    const { limit, count } = data.pagination;
    if (data.data.length === 0 || page * limit >= count) return;
  }
}

/** An error answer of the API as an exception (its body kept in `body`). */
export class VericaseError extends Error {
  readonly body: unknown;
  constructor(body: unknown) {
    const message = (body as { message?: unknown } | undefined)?.message;
    super(typeof message === 'string' ? message : 'vericase API error');
    this.body = body;
  }
}

const encoder = new TextEncoder();

function keyBytes(secret: string): Uint8Array<ArrayBuffer> {
  if (!secret.startsWith('whsec_')) return encoder.encode(secret);
  const bin = atob(secret.slice(6));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/**
 * Verifies a webhook delivery (Standard Webhooks): `webhook-signature` holds `v1,<base64 HMAC-SHA256>`
 * of `{webhook-id}.{webhook-timestamp}.{raw body}` keyed with the webhook's secret. Refuses a
 * timestamp further than `toleranceSeconds` from now (replays). Pass the raw body, not re-serialised
 * JSON. Web Crypto only: runs in Node, Deno, Bun and browsers.
 */
export async function verifyWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined> | Headers,
  rawBody: string,
  { toleranceSeconds = 300, now = Date.now() }: { toleranceSeconds?: number; now?: number } = {},
): Promise<boolean> {
  // header names are case-insensitive: a plain object may spell them `Webhook-Id` as well
  const get = (name: string) => {
    const v =
      headers instanceof Headers
        ? headers.get(name)
        : (headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1]);
    return Array.isArray(v) ? v[0] : (v ?? undefined);
  };
  const id = get('webhook-id');
  const timestamp = get('webhook-timestamp');
  const signatures = get('webhook-signature');
  if (!id || !timestamp || !signatures) return false;
  if (Math.abs(now / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = keyBytes(secret);
  } catch {
    return false; // a `whsec_` secret that is not base64 verifies nothing
  }
  if (bytes.length === 0) return false;
  const key = await crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'verify',
  ]);
  for (const part of signatures.split(' ')) {
    const [version, b64] = part.split(',');
    if (version !== 'v1' || !b64) continue;
    let sig: Uint8Array<ArrayBuffer>;
    try {
      sig = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    } catch {
      continue;
    }
    // crypto.subtle.verify compares in constant time
    if (await crypto.subtle.verify('HMAC', key, sig, encoder.encode(`${id}.${timestamp}.${rawBody}`)))
      return true;
  }
  return false;
}
