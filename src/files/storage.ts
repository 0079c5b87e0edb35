import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline, type Readable, Transform } from 'node:stream';
import { pipeline as pipelineAsync } from 'node:stream/promises';
import type { Config } from '../config.ts';
import { OUTAGE_RETRY_AFTER_SECONDS } from '../db/unavailable.ts';
import { ApiError } from '../http/errors.ts';
import { NETWORK_ERROR_CODES } from '../shared/network-errors.ts';

/**
 * Where file bytes live. Keys are opaque, slash-separated and made by `storageKeyFor` (never from a
 * caller-supplied name). `put` streams: it never holds the whole body in memory, stops at `maxBytes`
 * and leaves nothing behind when it fails.
 */
export interface FileStorage {
  readonly kind: 'local' | 's3';
  /** Stores the stream under `key`; rejects with `StorageLimitExceeded` past `maxBytes` (nothing kept). */
  put(key: string, body: Readable, maxBytes: number): Promise<{ size: number }>;
  /** The stored bytes; rejects with `StoredObjectNotFound` when there are none. */
  get(key: string): Promise<Readable>;
  /** Removes the bytes; a missing key is not an error. */
  delete(key: string): Promise<void>;
}

export class StorageLimitExceeded extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`stored object exceeds ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
  }
}

export class StoredObjectNotFound extends Error {
  constructor(key: string) {
    super(`no stored object under ${key}`);
  }
}

/**
 * The bucket cannot be reached, stalls or keeps failing (an outage, S3's SlowDown or 5xx after the
 * SDK's own retries): the request is answered 503 with `retry-after`, as for a database outage, not
 * 500. Logged as the database's outages are (one line an episode, naming the storage, then counts:
 * src/http/outage-log.ts), at warn: it passes by itself.
 */
export class StorageUnavailable extends ApiError {
  /** What happened, without naming the bucket ("did not answer in time"). */
  readonly reason: string;
  constructor(
    cause: unknown,
    where = 'file storage',
    reason = 'is unavailable',
    message = 'File storage is unavailable; try again shortly',
  ) {
    super(503, message);
    this.cause = cause;
    this.reason = reason;
    this.retryAfterSeconds = OUTAGE_RETRY_AFTER_SECONDS;
    this.outage = { log: `${where} ${reason}`, level: 'warn' };
  }
}

/**
 * The bucket answers but refuses this configuration: it does not exist, the credentials are unknown,
 * wrong or not allowed, none were found, or it is in another region. Every upload and download was a
 * 500 "An unexpected error occurred" that told neither the client nor, in a crowd of stack traces,
 * the operator. A 503 still (the service is not at fault with the request), but not one that passes
 * by itself: logged at error, naming the cause, and `retry-after` a minute, as for a full disk.
 */
export class StorageMisconfigured extends StorageUnavailable {
  constructor(cause: unknown, where: string, reason: string) {
    super(
      cause,
      where,
      reason,
      'File storage is unavailable: it is misconfigured, and the server log says how; an operator has to correct it',
    );
    this.retryAfterSeconds = 60;
    this.outage = { log: `${where} is misconfigured: ${reason}`, level: 'error' };
  }
}

/** How an S3 bucket is named in the log: bucket and endpoint, never a credential. */
function describeBucket(s3: S3Settings): string {
  return `S3 bucket ${s3.bucket}${s3.endpoint ? ` at ${s3.endpoint}` : ` in ${s3.region}`}`;
}

/**
 * What is wrong with the configuration when the bucket refuses it, null when the error is not that.
 * `headBucket`: the error answers HeadBucket, whose 404 (no body, so no code) is the bucket missing.
 */
function misconfiguration(
  e: { name?: string; $metadata?: { httpStatusCode?: number } },
  headBucket: boolean,
): string | null {
  const name = e?.name ?? '';
  const status = e?.$metadata?.httpStatusCode;
  if (name === 'CredentialsProviderError')
    return 'no credentials were found (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, or an instance or task role)';
  if (name === 'NoSuchBucket' || (headBucket && status === 404))
    return `the bucket does not exist (${name || status})`;
  if (name === 'InvalidBucketName') return 'the bucket name is not valid (InvalidBucketName)';
  if (name === 'InvalidAccessKeyId')
    return 'the credentials were refused: the access key id is unknown to the server (InvalidAccessKeyId)';
  if (name === 'SignatureDoesNotMatch')
    return 'the credentials were refused: the secret access key does not match the access key id (SignatureDoesNotMatch)';
  if (status === 403)
    return `the credentials were refused or are not allowed to use the bucket (${name || status})`;
  if (name === 'PermanentRedirect' || name === 'AuthorizationHeaderMalformed' || status === 301)
    return `the bucket is not in VERICASE_S3_REGION, or not at this endpoint (${name || status})`;
  return null;
}

/** An S3 client's error as the API reports it: StorageUnavailable for an outage, else unchanged. */
function s3Failure(err: unknown, s3: S3Settings, headBucket = false): unknown {
  const e = err as { code?: string; name?: string; $metadata?: { httpStatusCode?: number } };
  const status = e?.$metadata?.httpStatusCode;
  const where = `file storage (${describeBucket(s3)})`;
  const wrong = misconfiguration(e, headBucket);
  if (wrong) return new StorageMisconfigured(err, where, wrong);
  // the SDK's connection or idle timeout (s3ClientOptions): a bucket that accepts and stays silent
  if (e?.name === 'TimeoutError' || e?.code === 'ETIMEDOUT')
    return new StorageUnavailable(err, where, 'did not answer in time');
  if (typeof e?.code === 'string' && NETWORK_ERROR_CODES.has(e.code))
    return new StorageUnavailable(err, where, 'cannot be reached');
  if (status !== undefined && (status >= 500 || status === 429))
    return new StorageUnavailable(err, where, `keeps failing (HTTP ${status} after retries)`);
  return err;
}

/** Storage key of a file: `<workspace_id>/<file_id>`; the file name of the upload is never used. */
export function storageKeyFor(workspaceId: string, fileId: string): string {
  return `${workspaceId}/${fileId}`;
}

const KEY_RE = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

function assertKey(key: string): void {
  if (!KEY_RE.test(key)) throw new Error(`invalid storage key: ${key}`);
}

/** A pass-through that fails with `StorageLimitExceeded` as soon as more than `maxBytes` went by. */
export function byteCap(maxBytes: number): Transform & { bytes: () => number } {
  let seen = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > maxBytes) cb(new StorageLimitExceeded(maxBytes));
      else cb(null, chunk);
    },
  });
  return Object.assign(t, { bytes: () => seen });
}

/** The temporary name a local file is written to, next to its own: `<file>.<random>.part`. */
export const PART_SUFFIX = '.part';

/** Files under a local directory (`DATA_DIR/files` by default): written to a temp name, then renamed. */
export class LocalFileStorage implements FileStorage {
  readonly kind = 'local' as const;
  readonly root: string;
  /**
   * The `.part` files this process is writing: what a shutdown removes once the requests it cut
   * are gone (their own clean-up may not get to run), and what a sweep leaves alone
   * (src/files/unfinished-uploads.ts).
   */
  readonly unfinished = new Set<string>();

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** Absolute path of a key (keys are validated: no `..`, no absolute paths). */
  pathOf(key: string): string {
    assertKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, body: Readable, maxBytes: number): Promise<{ size: number }> {
    const target = this.pathOf(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.${randomBytes(6).toString('hex')}${PART_SUFFIX}`;
    const cap = byteCap(maxBytes);
    this.unfinished.add(tmp);
    try {
      await pipelineAsync(body, cap, fs.createWriteStream(tmp, { flags: 'wx' }));
      await fs.promises.rename(tmp, target);
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw err;
    } finally {
      this.unfinished.delete(tmp);
    }
    return { size: cap.bytes() };
  }

  async get(key: string): Promise<Readable> {
    const file = this.pathOf(key);
    // open first so a missing file is reported before any byte is sent
    const handle = await fs.promises.open(file, 'r').catch((err: NodeJS.ErrnoException) => {
      throw err.code === 'ENOENT' ? new StoredObjectNotFound(key) : err;
    });
    return handle.createReadStream();
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }
}

export interface S3Settings {
  bucket: string;
  region: string;
  endpoint: string | null;
  forcePathStyle: boolean;
  /** Silence allowed per attempt, connecting or waiting for bytes (VERICASE_S3_TIMEOUT_MS). */
  timeoutMs: number;
}

/** Object key in the bucket of a storage key: everything lives under `files/`. */
export function s3ObjectKey(key: string): string {
  assertKey(key);
  return `files/${key}`;
}

/**
 * Options of the S3 clients (credentials come from the SDK's default provider chain). The SDK sets
 * no timeout of its own: a bucket that accepted the connection and never answered held each upload
 * and download until the HTTP server cut it without an answer (130 s). Bounded here per attempt, and
 * after three attempts (the SDK's retries) it is a 503 (s3Failure); a connection must open within
 * `timeoutMs` either way. Then:
 *
 * - `write` (uploads, deletes, the readiness check): the socket may not stay silent longer, however
 *   long the request takes: an upload's parts keep it busy while they go, and a 20 MB upload over a
 *   slow link has no total to fit in;
 * - `read` (downloads): the answer's headers must come within `timeoutMs`, and the body is then not
 *   bounded: it is read as fast as the API's client takes it, and a slow client pauses it for longer
 *   than that, which is no stalled bucket (a socket idle timeout cut such downloads). A bucket that
 *   stalls mid-body leaves the client's connection silent, which the HTTP server's idle timeout
 *   (VERICASE_HTTP_IDLE_TIMEOUT_MS) closes, and this stream with it.
 */
export function s3ClientOptions(s3: S3Settings, use: 'write' | 'read' = 'write') {
  return {
    region: s3.region,
    forcePathStyle: s3.forcePathStyle,
    ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
    requestHandler:
      use === 'write'
        ? { connectionTimeout: s3.timeoutMs, socketTimeout: s3.timeoutMs }
        : { connectionTimeout: s3.timeoutMs, requestTimeout: s3.timeoutMs, throwOnRequestTimeout: true },
  };
}

type S3Module = typeof import('@aws-sdk/client-s3');

/**
 * An S3-compatible bucket. Uploads are streamed as multipart uploads (5 MB parts, at most 4 in
 * flight); a failed or oversized upload is aborted by the uploader. The SDK is loaded on first use;
 * downloads have a client of their own (s3ClientOptions: timeouts that suit a streamed body).
 */
export class S3FileStorage implements FileStorage {
  readonly kind = 's3' as const;
  readonly settings: S3Settings;
  #sdk:
    | Promise<{
        s3: S3Module;
        client: InstanceType<S3Module['S3Client']>;
        reader: InstanceType<S3Module['S3Client']>;
      }>
    | undefined;

  constructor(settings: S3Settings) {
    this.settings = settings;
  }

  #load() {
    this.#sdk ??= import('@aws-sdk/client-s3').then((s3) => ({
      s3,
      client: new s3.S3Client(s3ClientOptions(this.settings, 'write')),
      reader: new s3.S3Client(s3ClientOptions(this.settings, 'read')),
    }));
    return this.#sdk;
  }

  async put(key: string, body: Readable, maxBytes: number): Promise<{ size: number }> {
    const Key = s3ObjectKey(key);
    const { client } = await this.#load();
    const { Upload } = await import('@aws-sdk/lib-storage');
    const cap = byteCap(maxBytes);
    let streamError: Error | undefined;
    // pipeline destroys the cap with the source's error, which fails the upload
    const capped = pipeline(body, cap, (err) => {
      if (err) streamError = err;
    });
    const upload = new Upload({
      client,
      params: { Bucket: this.settings.bucket, Key, Body: capped, ContentType: 'application/octet-stream' },
      queueSize: 4,
      partSize: 5 * 1024 * 1024,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      await upload.abort().catch(() => {});
      throw streamError ?? s3Failure(err, this.settings);
    }
    if (streamError) {
      await this.delete(key).catch(() => {});
      throw streamError;
    }
    return { size: cap.bytes() };
  }

  async get(key: string): Promise<Readable> {
    const { s3, reader } = await this.#load();
    try {
      const res = await reader.send(
        new s3.GetObjectCommand({ Bucket: this.settings.bucket, Key: s3ObjectKey(key) }),
      );
      return res.Body as Readable;
    } catch (err) {
      if ((err as { name?: string }).name === 'NoSuchKey') throw new StoredObjectNotFound(key);
      throw s3Failure(err, this.settings);
    }
  }

  /**
   * Whether the bucket exists and takes these credentials (HeadBucket: no object read), for /readyz.
   * Rejects with StorageMisconfigured or StorageUnavailable as a request would, or with the SDK's
   * AbortError when `signal` ends it first.
   */
  async probe(signal: AbortSignal): Promise<void> {
    const { s3, client } = await this.#load();
    try {
      await client.send(new s3.HeadBucketCommand({ Bucket: this.settings.bucket }), { abortSignal: signal });
    } catch (err) {
      throw s3Failure(err, this.settings, true);
    }
  }

  async delete(key: string): Promise<void> {
    const { s3, client } = await this.#load();
    try {
      await client.send(new s3.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: s3ObjectKey(key) }));
    } catch (err) {
      throw s3Failure(err, this.settings);
    }
  }
}

/** The storage of a configuration: the S3 bucket when `config.s3` is set, else `DATA_DIR/files`. */
export function createStorage(config: Pick<Config, 'dataDir' | 's3'>): FileStorage {
  if (config.s3) return new S3FileStorage(config.s3);
  return new LocalFileStorage(path.join(config.dataDir, 'files'));
}

/** The context's storage, created from its configuration on first use. */
export function getStorage(ctx: {
  config: Pick<Config, 'dataDir' | 's3'>;
  storage?: FileStorage;
}): FileStorage {
  ctx.storage ??= createStorage(ctx.config);
  return ctx.storage;
}
