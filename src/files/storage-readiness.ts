import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../app-context.ts';
import type { ReadinessCheck } from '../ops/routes.ts';
import { getStorage, S3FileStorage, StorageMisconfigured, StorageUnavailable } from './storage.ts';

/** How long /readyz reuses the bucket's answer: probes come every few seconds from every balancer. */
const CACHE_MS = 10_000;
/** How long the probe waits for the bucket, as the database check waits for its `select 1`. */
const PROBE_TIMEOUT_MS = 2_000;

interface Probe {
  at: number;
  result: Promise<ReadinessCheck>;
}

const probes = new WeakMap<S3FileStorage, Probe>();
/** The last failure each storage logged: a cause is logged when it starts, not at every probe. */
const logged = new WeakMap<S3FileStorage, string>();

/**
 * `/readyz`'s `storage`: skipped for files on local disk (their failures are the disk's, a full one
 * answered 503 by each write); for an S3 bucket, a HeadBucket, cached CACHE_MS:
 *
 * - `fail` when the bucket refuses this configuration (missing, credentials refused or none found,
 *   another region): a process configured so cannot store or serve a file, and a rolling upgrade with
 *   a typo in its bucket or keys should stop at the first new process rather than replace them all;
 * - `warn` when it does not answer (down, stalled): uploads and downloads answer 503 meanwhile, but
 *   every process shares the bucket, and everything else still works: taking all of them out of the
 *   load balancer would turn a file storage outage into a total one.
 */
export async function storageReadiness(ctx: AppContext, log: FastifyBaseLogger): Promise<ReadinessCheck> {
  if (!ctx.config.s3)
    return { status: 'skipped', message: 'files are stored on local disk (DATA_DIR/files)' };
  const storage = getStorage(ctx);
  if (!(storage instanceof S3FileStorage)) return { status: 'skipped', message: 'no S3 bucket in use' };
  const now = Date.now();
  let probe = probes.get(storage);
  if (!probe || now - probe.at > CACHE_MS) {
    probe = { at: now, result: probeBucket(storage, log) };
    probes.set(storage, probe);
  }
  return probe.result;
}

async function probeBucket(storage: S3FileStorage, log: FastifyBaseLogger): Promise<ReadinessCheck> {
  const started = performance.now();
  try {
    await storage.probe(AbortSignal.timeout(PROBE_TIMEOUT_MS));
    logged.delete(storage);
    return { status: 'ok', ms: Math.round(performance.now() - started) };
  } catch (err) {
    const check = failed(err);
    if (logged.get(storage) !== check.message) {
      logged.set(storage, check.message);
      // the log names the bucket, /readyz does not
      const what = err instanceof StorageUnavailable && err.outage ? err.outage.log : check.message;
      const cause = err instanceof StorageUnavailable ? err.cause : err;
      log[check.status === 'fail' ? 'error' : 'warn']({ err: cause }, `readiness: ${what}`);
    }
    return check;
  }
}

function failed(err: unknown): ReadinessCheck & { message: string } {
  // the reason without the bucket's name and endpoint: /readyz needs no key
  if (err instanceof StorageMisconfigured)
    return { status: 'fail', message: `file storage is misconfigured: ${err.reason}` };
  const reason =
    err instanceof StorageUnavailable
      ? err.reason
      : (err as Error)?.name === 'AbortError'
        ? `did not answer within ${PROBE_TIMEOUT_MS} ms`
        : `answered an unexpected error (${(err as Error)?.name})`;
  return {
    status: 'warn',
    message: `the bucket ${reason}: uploads and downloads answer 503 until it answers (this process stays ready: everything else works)`,
  };
}
