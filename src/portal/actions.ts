import type { Static } from 'typebox';
import type { CheckTypeDefinition } from '../checks/check-type.ts';
import { checkTypeDefinition } from '../checks/registry.ts';
import { findCheck } from '../checks/repository.ts';
import type { Db } from '../db/connect.ts';
import type { CheckRow, ClientPortalLinkRow, ClientPortalPendingFileRow } from '../db/schema.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { lockLiveLink } from './auth.ts';
import type { PortalActionDefinition, PortalSlot } from './portal-action.ts';
import type { ActionOut, ActionState } from './schemas.ts';

// The checks a link shows as actions, and how one is presented. A case-wide link shows the checks
// of its case whose type has a portal hook that shows them to this contact, on relevant entities,
// internal checks never; a check link shows its one check. Anything else is "not found" to the link.

type State = Static<typeof ActionState>;
export type Action = Static<typeof ActionOut>;

interface Entity {
  kind: 'company' | 'individual';
  name: string;
  is_relevant: boolean;
}

/** A check the link shows, with what presenting it needs. */
export interface Shown {
  check: CheckRow;
  portal: PortalActionDefinition;
  def: CheckTypeDefinition;
  entity: Entity;
}

/** Check status → what the contact sees. A finished check that failed can take new data. */
export function stateOf(status: string): State {
  switch (status) {
    case 'in_progress':
      return 'todo';
    case 'approved':
      return 'approved';
    case 'rejected':
    case 'expired':
      return 'retry';
    default:
      return 'submitted';
  }
}

/** States in which the contact may add, remove and submit files. */
const ACCEPTING: ReadonlySet<State> = new Set(['todo', 'retry']);

/** 400 unless the action takes files now (it was submitted and is being checked, or was approved). */
export function assertAccepting(check: CheckRow): void {
  const state = stateOf(check.status);
  if (ACCEPTING.has(state)) return;
  throw badRequest(
    state === 'approved'
      ? 'This step was already approved: nothing more is needed for it'
      : 'This step was already submitted and is being checked: it takes no new files now',
  );
}

async function entitiesOf(db: Db, caseId: string, checks: CheckRow[]): Promise<Map<string, Entity>> {
  const out = new Map<string, Entity>();
  const companyIds = [...new Set(checks.map((c) => c.company_id).filter((id): id is string => !!id))];
  const individualIds = [...new Set(checks.map((c) => c.individual_id).filter((id): id is string => !!id))];
  if (companyIds.length) {
    const rows = await db
      .selectFrom('companies')
      .select(['id', 'name', 'is_relevant'])
      .where('case_id', '=', caseId)
      .where('id', 'in', companyIds)
      .execute();
    for (const r of rows) out.set(r.id, { kind: 'company', name: r.name, is_relevant: r.is_relevant });
  }
  if (individualIds.length) {
    const rows = await db
      .selectFrom('individuals')
      .select(['id', 'first_name', 'last_name', 'is_relevant'])
      .where('case_id', '=', caseId)
      .where('id', 'in', individualIds)
      .execute();
    for (const r of rows) {
      const name = [r.first_name, r.last_name].filter(Boolean).join(' ');
      out.set(r.id, { kind: 'individual', name, is_relevant: r.is_relevant });
    }
  }
  return out;
}

/** Whether the link shows this check (of its own case, already loaded), and how. */
function shownBy(link: ClientPortalLinkRow, check: CheckRow, entities: Map<string, Entity>): Shown | null {
  if (check.case_id !== link.case_id || check.workspace_id !== link.workspace_id) return null;
  const def = checkTypeDefinition(check.type);
  const portal = def?.portal;
  const entity = entities.get(check.company_id ?? check.individual_id ?? '');
  if (!def || !portal || !entity) return null;
  if (link.check_id) return link.check_id === check.id ? { check, portal, def, entity } : null;
  if (check.is_internal || !entity.is_relevant) return null;
  const shown = portal.audience === 'every_contact' || check.individual_id === link.individual_id;
  return shown ? { check, portal, def, entity } : null;
}

/** The checks the link shows, in the case's order. */
export async function shownChecks(db: Db, link: ClientPortalLinkRow): Promise<Shown[]> {
  let q = db
    .selectFrom('checks')
    .selectAll()
    .where('workspace_id', '=', link.workspace_id)
    .where('case_id', '=', link.case_id);
  if (link.check_id) q = q.where('id', '=', link.check_id);
  const checks = await q.orderBy('created_at').orderBy('id').execute();
  const entities = await entitiesOf(db, link.case_id, checks);
  return checks.map((c) => shownBy(link, c, entities)).filter((s): s is Shown => s !== null);
}

/**
 * One check the link shows, by id, locked for a change when `trx` is a transaction that writes;
 * 404 for any other id (another case's, another workspace's, one this link does not show). A write's
 * lookup (`forUpdate`, the first thing every portal write does in its transaction) first re-checks
 * the link under lock (`lockLiveLink`): a link withdrawn since the request was authorised refuses
 * the write with the authorisation's 401.
 */
export async function findShown(
  db: Db,
  link: ClientPortalLinkRow,
  checkId: string,
  forUpdate: boolean,
): Promise<Shown> {
  if (forUpdate) await lockLiveLink(db, link);
  const check = await findCheck(db, link.workspace_id, checkId, forUpdate);
  const shown =
    check && check.case_id === link.case_id
      ? shownBy(link, check, await entitiesOf(db, link.case_id, [check]))
      : null;
  if (!shown) throw notFound('Action');
  return shown;
}

/** The pending files of these checks, oldest first. */
export async function pendingFilesOf(db: Db, checkIds: string[]): Promise<ClientPortalPendingFileRow[]> {
  if (!checkIds.length) return [];
  return db
    .selectFrom('client_portal_pending_files')
    .selectAll()
    .where('check_id', 'in', checkIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The slot of this key, or 400 naming `slot`. */
export function slotOf(shown: Shown, key: string): PortalSlot {
  const slots = shown.portal.slots(shown.check);
  const slot = slots.find((s) => s.key === key);
  if (!slot) {
    // a step without slots (a signature) takes no file at all: "one of: " and nothing would puzzle
    throw badRequest(
      slots.length
        ? `slot must be one of: ${slots.map((s) => s.key).join(', ')}`
        : 'slot: this step takes no files',
      'slot',
    );
  }
  return slot;
}

/** A slot lacking files for a submission, or null when every slot has what it needs. */
export function missingSlot(
  slots: PortalSlot[],
  pending: Pick<ClientPortalPendingFileRow, 'slot'>[],
): PortalSlot | null {
  for (const slot of slots) {
    if (pending.filter((p) => p.slot === slot.key).length < slot.min_files) return slot;
  }
  return null;
}

/** The action as the page shows it. */
export async function presentAction(
  db: Db,
  shown: Shown,
  pending: ClientPortalPendingFileRow[],
): Promise<Action> {
  const { check, portal, entity } = shown;
  const state = stateOf(check.status);
  const accepting = ACCEPTING.has(state);
  const mine = pending.filter((p) => p.check_id === check.id);
  // a submitted step's files were handed to the check: its slots show none
  const slots = portal.slots(check).map((s) => ({
    ...s,
    files: accepting
      ? mine
          .filter((p) => p.slot === s.key)
          .map((p) => ({ id: p.id, name: p.file_name, size: Number(p.size) }))
      : [],
  }));
  const described = portal.describe ? await portal.describe(db, check) : { label: null, description: null };
  return {
    id: check.id,
    type: check.type,
    state,
    entity: { kind: entity.kind, name: entity.name },
    label: described.label,
    description: described.description,
    slots,
    can_submit: accepting && mine.length > 0 && missingSlot(slots, mine) === null,
    checking: check.status === 'processing',
    retry_reason: state === 'retry' ? (portal.retryReason?.(check) ?? null) : null,
    ...((portal.extra ? await portal.extra(db, check) : {}) as Partial<Action>),
  };
}

/** One action, re-read (after a change) with its pending files. */
export async function readAction(db: Db, link: ClientPortalLinkRow, checkId: string): Promise<Action> {
  const shown = await findShown(db, link, checkId, false);
  return presentAction(db, shown, await pendingFilesOf(db, [checkId]));
}
