import { createHmac, randomBytes } from 'node:crypto';
import type { AppContext } from '../app-context.ts';
import type { Db } from '../db/connect.ts';
import type { Identifier } from './identifiers.ts';

const SECRET_NAME = 'fraud_hash_secret';
const loaded = new WeakMap<Db, string>();

/**
 * Loads (or creates, the first time any process needs it) the generated key, outside any
 * transaction, and keeps it for this process: run at start-up by the module, so requests never
 * wait for it. Only when `VERICASE_FRAUD_HASH_SECRET` is not configured.
 */
export async function loadHashSecret(ctx: AppContext): Promise<void> {
  if (ctx.config.fraudHashSecret || loaded.has(ctx.db)) return;
  loaded.set(ctx.db, await loadOrCreate(ctx.db));
}

/**
 * The HMAC key of the fraud list: `VERICASE_FRAUD_HASH_SECRET` when configured, otherwise a random
 * key generated once and kept in `service_secrets`, so every process on the database hashes alike
 * (the first to need it inserts it; a concurrent one keeps the row that won). Changing the key
 * makes every stored hash unmatchable: choose it once (docs/fraud-database.md). `db` is the
 * caller's connection or transaction, used only if the start-up load did not happen (nothing is
 * cached from it: its transaction may yet roll back).
 */
export async function hashSecret(ctx: AppContext, db: Db): Promise<string> {
  if (ctx.config.fraudHashSecret) return ctx.config.fraudHashSecret;
  return loaded.get(ctx.db) ?? loadOrCreate(db);
}

async function loadOrCreate(db: Db): Promise<string> {
  await db
    .insertInto('service_secrets')
    .values({ name: SECRET_NAME, value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('service_secrets')
    .select('value')
    .where('name', '=', SECRET_NAME)
    .executeTakeFirstOrThrow();
  return row.value;
}

/** HMAC-SHA256 of the kind and the normalised value, hex: the only form the list keeps. */
export function hashIdentifier(secret: string, id: Identifier): string {
  return createHmac('sha256', secret).update(`${id.kind}\n${id.value}`).digest('hex');
}
