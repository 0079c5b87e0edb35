import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { FileStorage } from '../files/storage.ts';
import { checkFileIds } from './documents/list-case-documents.ts';

type Data = Record<string, unknown>;

/**
 * Every file a case holds: its checks' files (current attempt and history, as the case's document
 * list names them), files a client portal received for its checks, the frozen documents of its
 * signature requests, its completed document orders, its reports, and the files of its checks since
 * deleted (recordDeletedCheckFiles). Read before the case is erased
 * (they all go with it) or when it is soft deleted (they are withheld with it).
 */
export async function caseFileIds(trx: Db, workspaceId: string, caseId: string): Promise<string[]> {
  const ids = new Set<string>();
  const checks = await trx
    .selectFrom('checks')
    .select(['id', 'type', 'data', 'history'])
    .where('workspace_id', '=', workspaceId)
    .where('case_id', '=', caseId)
    .execute();
  for (const c of checks) {
    for (const id of checkFileIds(c.type, (c.data ?? {}) as Data)) ids.add(id);
    const history = Array.isArray(c.history) ? (c.history as { data?: Data }[]) : [];
    for (const h of history) for (const id of checkFileIds(c.type, h?.data ?? {})) ids.add(id);
  }
  const others = await sql<{ file_id: string | null }>`
    select p.file_id from client_portal_pending_files p join checks k on k.id = p.check_id
      where k.workspace_id = ${workspaceId} and k.case_id = ${caseId}
    union all
    select s.document_file_id from signature_requests s join checks k on k.id = s.check_id
      where k.workspace_id = ${workspaceId} and k.case_id = ${caseId}
    union all
    select file_id from document_orders where workspace_id = ${workspaceId} and case_id = ${caseId}
    union all
    select file_id from case_reports where workspace_id = ${workspaceId} and case_id = ${caseId}
    union all
    select file_id from deleted_check_files where case_id = ${caseId}
  `.execute(trx);
  for (const r of others.rows) if (r.file_id) ids.add(r.file_id);
  return [...ids];
}

/** Check types whose data names files (checkFileIds in list-case-documents.ts). */
const FILE_CHECK_TYPES = sql`('document', 'id_document', 'id_verification', 'electronic_signature')`;

/** A file id as a check's JSON writes it. */
const UUID_IN_TEXT = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/**
 * Before checks are deleted (on their own, or with their company or individual), in the same
 * transaction: their files stay files of their case, erased or withheld with it. Every file of the
 * workspace a check's data, history or internal state names counts (an attempt's files before
 * submission live in `internal`), not only those its document list shows.
 */
export async function recordDeletedCheckFiles(
  trx: Db,
  workspaceId: string,
  checkIds: string[],
): Promise<void> {
  if (checkIds.length === 0) return;
  await sql`
    insert into deleted_check_files (case_id, file_id)
    select distinct k.case_id, f.id
    from checks k
    cross join lateral regexp_matches(
      k.data::text || coalesce(k.history::text, '') || coalesce(k.internal::text, ''), ${UUID_IN_TEXT}, 'g'
    ) as m(found)
    join files f on f.workspace_id = k.workspace_id and f.id = m.found[1]::uuid
    where k.workspace_id = ${workspaceId} and k.id = any(${checkIds}::uuid[])
      and k.type in ${FILE_CHECK_TYPES}
    on conflict do nothing
  `.execute(trx);
}

/**
 * Whether a check (of a live case only, with `liveCasesOnly`) references the file `f`: an upload
 * can be referenced by checks of several cases while its upload_ref is valid. A check can only
 * reference a file it was written with after the file was made, which bounds the scan.
 */
const referencedByCheck = (workspaceId: string, liveCasesOnly: boolean) => sql<boolean>`exists (
  select 1 from checks k
  ${liveCasesOnly ? sql`join cases c on c.id = k.case_id and c.deleted_at is null` : sql``}
  where k.workspace_id = ${workspaceId} and k.updated_at >= f.created_at
    and k.type in ${FILE_CHECK_TYPES}
    and strpos(k.data::text || coalesce(k.history::text, ''), f.id::text) > 0)`;

/** A client portal's logo is an upload too, and outlives every case. */
const isPortalLogo = sql<boolean>`exists (select 1 from client_portals p where p.logo_file_id = f.id)`;

/**
 * Deletes the rows of `fileIds` (after their case was erased in `trx`) except those something else
 * still references: a check of another case (live or soft deleted: its own erasure takes them), or
 * a client portal's logo. Returns the storage keys to delete once the transaction has committed.
 */
export async function deleteCaseFiles(trx: Db, workspaceId: string, fileIds: string[]): Promise<string[]> {
  if (fileIds.length === 0) return [];
  const deleted = await sql<{ storage_key: string }>`
    delete from files f
    where f.workspace_id = ${workspaceId} and f.id = any(${fileIds}::uuid[])
      and not ${isPortalLogo} and not ${referencedByCheck(workspaceId, false)}
    returning f.storage_key
  `.execute(trx);
  return deleted.rows.map((r) => r.storage_key);
}

/**
 * Withholds `fileIds` (the files of a case just soft deleted in `trx`) except those something live
 * still references: a check of a live case, or a client portal's logo. A withheld file is read as
 * absent (`findFile`, `attachUpload`); its bytes and row stay until the case is erased.
 *
 * The rows are locked first, then checked in a statement of its own: a check of another case
 * attaching one of them concurrently (which locks the row in `markAttached`) has either committed,
 * and its check is seen, or waits and then finds the file withheld (a 400, as an unknown upload).
 */
export async function withholdCaseFiles(trx: Db, workspaceId: string, fileIds: string[]): Promise<void> {
  if (fileIds.length === 0) return;
  await sql`select id from files where workspace_id = ${workspaceId} and id = any(${fileIds}::uuid[])
    order by id for update`.execute(trx);
  await sql`
    update files f set withheld_at = now()
    where f.workspace_id = ${workspaceId} and f.id = any(${fileIds}::uuid[]) and f.withheld_at is null
      and not ${isPortalLogo} and not ${referencedByCheck(workspaceId, true)}
  `.execute(trx);
}

/** Removes erased files' bytes; a failure leaves bytes no row reaches (no API can read them). */
export async function removeStoredFiles(
  storage: FileStorage,
  keys: string[],
  onError: (err: unknown, key: string) => void,
): Promise<void> {
  for (const key of keys) await storage.delete(key).catch((err: unknown) => onError(err, key));
}
