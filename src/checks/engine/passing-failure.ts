import { outageOf } from '../../db/unavailable.ts';
import { StorageUnavailable, StoredObjectNotFound } from '../../files/storage.ts';

/**
 * Whether a provider job's failure to read a check's files may pass, so that the job is retried
 * (pg-boss's retries, backing off) rather than the check sent to review in error at once: the bucket
 * or the database unreachable, or a file's bytes not found. The last is a deployment whose worker
 * processes do not share the API processes' `DATA_DIR/files` (docs/deployment.md): retried, each
 * failure is in the job queue's log with its message ("no stored object under ..."), where it used to
 * become a check in error that nothing logged (scale-out walk). The last retry decides as before.
 */
export function mayPass(err: unknown): boolean {
  return err instanceof StorageUnavailable || err instanceof StoredObjectNotFound || outageOf(err) !== null;
}
