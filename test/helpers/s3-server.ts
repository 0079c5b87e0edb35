import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import zlib from 'node:zlib';

/**
 * A small S3-compatible server for tests, path-style (`/bucket/key`), in memory: the calls the
 * service's storage makes (src/files/storage.ts) and nothing else: HeadBucket, PutObject, the
 * multipart upload (create, part, complete, abort), GetObject, DeleteObject. Signatures are not
 * checked; the access key id is when one is given (`accessKeyId`). Bodies sent
 * `aws-chunked` (the SDK's default with its CRC32 checksum trailer) are decoded, and a checksum the
 * SDK sends is verified, as S3 would.
 */
export class S3TestServer {
  readonly objects = new Map<string, Buffer>();
  /** Multipart uploads in progress: upload id → parts by number. */
  readonly uploads = new Map<string, { key: string; parts: Map<number, Buffer> }>();
  /** Every request, `METHOD /path?query`. */
  readonly requests: string[] = [];
  readonly bucket: string;
  /** The one access key id accepted (`InvalidAccessKeyId` for any other); null: any. */
  readonly accessKeyId: string | null;
  #server: http.Server | undefined;
  readonly #sockets = new Set<net.Socket>();
  /** While stalled: the requests read and never answered. */
  #stalled: http.ServerResponse[] | null = null;
  port = 0;

  constructor(bucket: string, opts: { accessKeyId?: string } = {}) {
    this.bucket = bucket;
    this.accessKeyId = opts.accessKeyId ?? null;
  }

  /**
   * A stalled server: connections are accepted and requests read, but none is answered (a frozen
   * host, a proxy holding requests); `resume` answers again (the held requests are cut).
   */
  stall(): void {
    this.#stalled ??= [];
  }

  resume(): void {
    for (const res of this.#stalled ?? []) res.socket?.destroy();
    this.#stalled = null;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = http.createServer((req, res) => {
      if (this.#stalled) {
        this.requests.push(`stalled ${req.method} ${req.url}`);
        this.#stalled.push(res);
        return void req.resume();
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          this.#handle(req, Buffer.concat(chunks), res);
        } catch (err) {
          this.#error(res, 500, 'InternalError', (err as Error).message);
        }
      });
    });
    server.on('connection', (s) => {
      this.#sockets.add(s);
      s.on('close', () => this.#sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as net.AddressInfo).port;
    this.#server = server;
  }

  /** Stops listening and cuts every connection (an outage; `start` again serves the same port). */
  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  #handle(req: http.IncomingMessage, raw: Buffer, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://s3');
    this.requests.push(`${req.method} ${url.pathname}${url.search}`);
    const [, bucket, ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    // SigV4: `Credential=<access key id>/<date>/<region>/s3/aws4_request`
    const keyId = /Credential=([^/,\s]+)\//.exec(String(req.headers.authorization ?? ''))?.[1];
    if (this.accessKeyId !== null && keyId !== this.accessKeyId)
      return this.#error(
        res,
        403,
        'InvalidAccessKeyId',
        'The AWS Access Key Id you provided does not exist in our records.',
      );
    if (bucket !== this.bucket)
      return this.#error(res, 404, 'NoSuchBucket', 'The specified bucket does not exist');
    // HeadBucket: the bucket exists and the credentials may use it (no body, as S3)
    if (req.method === 'HEAD' && !key) {
      res.writeHead(200);
      return void res.end();
    }
    const q = url.searchParams;
    const body = this.#decoded(req, raw);
    if (body instanceof Error) return this.#error(res, 400, 'BadDigest', body.message);
    const etag = `"${createHash('md5').update(body).digest('hex')}"`;
    if (req.method === 'POST' && q.has('uploads')) {
      const id = randomUUID();
      this.uploads.set(id, { key, parts: new Map() });
      return this.#xml(
        res,
        200,
        `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
      );
    }
    const uploadId = q.get('uploadId');
    if (uploadId !== null) {
      const upload = this.uploads.get(uploadId);
      if (!upload) return this.#error(res, 404, 'NoSuchUpload', 'The specified upload does not exist');
      if (req.method === 'PUT') {
        upload.parts.set(Number(q.get('partNumber')), body);
        res.writeHead(200, { etag });
        return void res.end();
      }
      if (req.method === 'DELETE') {
        this.uploads.delete(uploadId);
        res.writeHead(204);
        return void res.end();
      }
      if (req.method === 'POST') {
        const numbers = [...body.toString('utf8').matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) =>
          Number(m[1]),
        );
        this.objects.set(
          upload.key,
          Buffer.concat(numbers.map((n) => upload.parts.get(n) ?? Buffer.alloc(0))),
        );
        this.uploads.delete(uploadId);
        return this.#xml(
          res,
          200,
          `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><ETag>${etag}</ETag></CompleteMultipartUploadResult>`,
        );
      }
    }
    if (req.method === 'PUT') {
      this.objects.set(key, body);
      res.writeHead(200, { etag });
      return void res.end();
    }
    if (req.method === 'GET') {
      const object = this.objects.get(key);
      if (!object) return this.#error(res, 404, 'NoSuchKey', 'The specified key does not exist.');
      res.writeHead(200, { 'content-length': object.length, 'content-type': 'application/octet-stream' });
      return void res.end(object);
    }
    if (req.method === 'DELETE') {
      this.objects.delete(key);
      res.writeHead(204);
      return void res.end();
    }
    this.#error(res, 405, 'MethodNotAllowed', `${req.method} is not supported here`);
  }

  /** The payload of a body, `aws-chunked` decoded, its CRC32 trailer checked when there is one. */
  #decoded(req: http.IncomingMessage, raw: Buffer): Buffer | Error {
    const encoding = String(req.headers['content-encoding'] ?? '');
    const streamed = String(req.headers['x-amz-content-sha256'] ?? '').startsWith('STREAMING-');
    if (!encoding.includes('aws-chunked') && !streamed) return raw;
    const parts: Buffer[] = [];
    let at = 0;
    let trailer = '';
    for (;;) {
      const eol = raw.indexOf('\r\n', at);
      if (eol < 0) return new Error('aws-chunked: a chunk header without its line end');
      const size = Number.parseInt(raw.subarray(at, eol).toString('latin1').split(';')[0] as string, 16);
      at = eol + 2;
      if (size === 0) {
        trailer = raw.subarray(at).toString('latin1');
        break;
      }
      parts.push(raw.subarray(at, at + size));
      at += size + 2;
    }
    const payload = Buffer.concat(parts);
    const declared = Number(req.headers['x-amz-decoded-content-length'] ?? payload.length);
    if (declared !== payload.length)
      return new Error(`decoded ${payload.length} bytes, declared ${declared}`);
    const crc = trailer.match(/x-amz-checksum-crc32:([A-Za-z0-9+/=]+)/)?.[1];
    if (crc && crc !== crc32Base64(payload))
      return new Error('the CRC32 checksum does not match the payload');
    return payload;
  }

  #xml(res: http.ServerResponse, status: number, body: string): void {
    res.writeHead(status, { 'content-type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?>${body}`);
  }

  #error(res: http.ServerResponse, status: number, code: string, message: string): void {
    this.#xml(res, status, `<Error><Code>${code}</Code><Message>${message}</Message></Error>`);
  }
}

/** CRC-32 (IEEE), base64 of its big-endian bytes, as S3's `x-amz-checksum-crc32`. */
function crc32Base64(data: Buffer): string {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(zlib.crc32(data));
  return out.toString('base64');
}
