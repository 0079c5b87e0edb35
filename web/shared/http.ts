/**
 * JSON requests from the pages. XMLHttpRequest rather than fetch: it reports upload progress, which
 * the upload bars need (fetch has no upload progress in Safari or Chromium without streams).
 */

export class HttpError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, message: string, body: unknown) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

export interface RequestOptions {
  method?: string;
  token?: string | null;
  body?: XMLHttpRequestBodyInit | null;
  /** Called with the fraction (0..1) of the request body sent so far. */
  onUploadProgress?: (fraction: number) => void;
  responseType?: 'json' | 'blob';
  /** The body's content type (a JSON body is sent as a string). */
  contentType?: string;
}

/** The error body's message (`{message, details: [{path, message}]}`), else a status line. */
function messageOf(status: number, body: unknown): string {
  const b = body as { message?: unknown; details?: { message?: unknown }[] } | null;
  const detail = b?.details?.[0]?.message;
  if (typeof detail === 'string') return detail;
  if (typeof b?.message === 'string') return b.message;
  return status === 0 ? 'network error' : `HTTP ${status}`;
}

export function request<T>(url: string, opts: RequestOptions = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(opts.method ?? 'GET', url);
    xhr.responseType = opts.responseType ?? 'json';
    if (opts.token) xhr.setRequestHeader('Authorization', `Bearer ${opts.token}`);
    if (opts.contentType) xhr.setRequestHeader('Content-Type', opts.contentType);
    if (opts.onUploadProgress) {
      const report = opts.onUploadProgress;
      xhr.upload.addEventListener('progress', (e) => {
        if (e.lengthComputable && e.total > 0) report(e.loaded / e.total);
      });
    }
    xhr.addEventListener('load', () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(xhr.response as T);
      else reject(new HttpError(xhr.status, messageOf(xhr.status, xhr.response), xhr.response));
    });
    xhr.addEventListener('error', () => reject(new HttpError(0, 'network error', null)));
    xhr.addEventListener('abort', () => reject(new HttpError(0, 'aborted', null)));
    xhr.send(opts.body ?? null);
  });
}
