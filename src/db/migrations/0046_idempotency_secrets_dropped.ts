import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// Idempotency-Key answers were kept whole, so the answers of the routes that show a secret once
// (a new API key, a generated console password, a shared portal link with its token) kept that
// secret in plain text, where everything else holds only its hash, and replayed it to whoever
// retried the request. Those routes' answers are no longer kept (src/http/idempotency.ts,
// `secretAnswer`); the ones already stored are dropped here, found by the secret's own field. A
// retry of such a key is then the 409 saying the answer is not kept. Nothing to undo.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `update idempotency_keys set response_body = null
     where response_body like '%"api_key":"vk\\_%'
        or response_body like '%"password":"%'
        or response_body like '%"link":"%#token=vcp\\_%';`,
  );
}

export async function down(): Promise<void> {}
