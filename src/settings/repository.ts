import { isDeepStrictEqual } from 'node:util';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { updateIfChanged } from '../db/update-if-changed.ts';
import { deepMerge, resolveSettings, type Settings, withoutDefaults } from './defaults.ts';

export async function getSettings(db: Db, workspaceId: string): Promise<Settings> {
  const row = await db
    .selectFrom('workspaces')
    .select('settings')
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  return resolveSettings(row?.settings);
}

/** `PATCH`: the given settings merged into the stored ones, key by key (a validated, closed body). */
export function patchSettings(db: Db, workspaceId: string, patch: unknown): Promise<Settings> {
  return writeSettings(db, workspaceId, (stored) => deepMerge(stored ?? {}, patch));
}

/**
 * `PUT`: the given settings replace the stored ones, so whatever the body leaves out takes its
 * default again (`PUT {}` resets them all). PATCH unsets a check type's default with null, but not
 * the other settings: null is a value of its own for several (no limit, no review due).
 */
export function replaceSettings(db: Db, workspaceId: string, settings: unknown): Promise<Settings> {
  return writeSettings(db, workspaceId, () => settings ?? {});
}

/**
 * Stores the settings `next` makes of the stored ones, without the values equal to their defaults
 * (withoutDefaults). A write whose settings resolve as the current ones do is no write at all (the
 * body GET answered, sent back; a value its default already gives): nothing stored, `updated_at`
 * stays, even when the stored form differs (defaults spelled out by a write from before).
 */
async function writeSettings(
  db: Db,
  workspaceId: string,
  next: (stored: unknown) => unknown,
): Promise<Settings> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('workspaces')
      .select('settings')
      .where('id', '=', workspaceId)
      .forNoKeyUpdate()
      .executeTakeFirstOrThrow();
    const current = resolveSettings(row.settings);
    const stored = withoutDefaults(dropUnsetDefaults(next(row.settings)));
    const resolved = resolveSettings(stored);
    if (isDeepStrictEqual(resolved, current)) return current;
    await storeSettings(trx, workspaceId, stored);
    return resolved;
  });
}

/** Check defaults whose null is a value of its own (a sandbox profile everywhere, no redirect). */
const NULL_IS_A_VALUE = new Set(['profiles', 'redirect_url']);

/**
 * A check type's default given as null is unset: removed from what is stored, so the check resolves
 * it from the request, then the API default (GET no longer shows it). The schema allows that null
 * only where it is not a value of its own (src/settings/schemas.ts, CheckSettingsPatch).
 */
function dropUnsetDefaults(settings: unknown): unknown {
  const checks = (settings as { checks?: unknown } | null)?.checks;
  if (!checks || typeof checks !== 'object') return settings;
  const out: Record<string, unknown> = {};
  for (const [type, value] of Object.entries(checks)) {
    out[type] =
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).filter(([k, v]) => v !== null || NULL_IS_A_VALUE.has(k)))
        : value;
  }
  return { ...(settings as object), checks: out };
}

/** Writes the settings; the workspace's `updated_at` moves only when the stored settings change. */
async function storeSettings(db: Db, workspaceId: string, stored: unknown): Promise<void> {
  await updateIfChanged(
    db,
    'workspaces',
    workspaceId,
    { settings: JSON.stringify(stored) },
    { updated_at: sql`now()` },
  );
}
