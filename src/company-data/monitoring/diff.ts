import { canonicalJson } from '../../shared/canonical-json.ts';
import type { MonitoredOfficer, MonitoredOwner, MonitoringSnapshot } from './snapshot.ts';

export interface FieldChange {
  field: 'status' | 'name' | 'address';
  old: unknown;
  new: unknown;
}
type OwnerTerms = Pick<MonitoredOwner, 'roles' | 'ownership_percentage' | 'voting_rights_percentage'>;
export interface OwnerChange {
  key: string;
  name: string;
  old: OwnerTerms;
  new: OwnerTerms;
}
export interface OfficerChange {
  key: string;
  name: string;
  old: Pick<MonitoredOfficer, 'position'>;
  new: Pick<MonitoredOfficer, 'position'>;
}
export interface RegistryChanges {
  fields: FieldChange[];
  /** `changed`: an officer kept whose position changed (absent from changes stored before it was). */
  officers: { added: MonitoredOfficer[]; removed: MonitoredOfficer[]; changed?: OfficerChange[] };
  owners: { added: MonitoredOwner[]; removed: MonitoredOwner[]; changed: OwnerChange[] };
}

/** Key order does not count (a jsonb column gives its keys back in its own order). */
const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

function addedRemoved<T extends { key: string }>(before: T[], after: T[]) {
  const old = new Map(before.map((x) => [x.key, x]));
  const now = new Map(after.map((x) => [x.key, x]));
  return {
    added: after.filter((x) => !old.has(x.key)),
    removed: before.filter((x) => !now.has(x.key)),
    kept: after.filter((x) => old.has(x.key)).map((x) => [old.get(x.key) as T, x] as const),
  };
}

/** What changed between two registry snapshots; null when nothing monitored did. */
export function diffSnapshots(before: MonitoringSnapshot, after: MonitoringSnapshot): RegistryChanges | null {
  const fields: FieldChange[] = [];
  if (before.status !== after.status) fields.push({ field: 'status', old: before.status, new: after.status });
  if (before.name !== after.name) fields.push({ field: 'name', old: before.name, new: after.name });
  if (!same(before.address, after.address))
    fields.push({ field: 'address', old: before.address, new: after.address });
  const officers = addedRemoved(before.officers ?? [], after.officers ?? []);
  const owners = addedRemoved(before.owners ?? [], after.owners ?? []);
  const changed: OwnerChange[] = owners.kept
    .filter(
      ([o, n]) =>
        !same(o.roles, n.roles) || o.ownership_percentage !== n.ownership_percentage || votesChanged(o, n),
    )
    .map(([o, n]) => ({ key: n.key, name: n.name, old: ownerTerms(o), new: ownerTerms(n) }));
  const moved: OfficerChange[] = officers.kept
    .filter(([o, n]) => (o.position ?? null) !== (n.position ?? null))
    .map(([o, n]) => ({
      key: n.key,
      name: n.name,
      old: { position: o.position ?? null },
      new: { position: n.position ?? null },
    }));
  const nothing =
    !fields.length &&
    !officers.added.length &&
    !officers.removed.length &&
    !moved.length &&
    !owners.added.length &&
    !owners.removed.length &&
    !changed.length;
  if (nothing) return null;
  return {
    fields,
    officers: { added: officers.added, removed: officers.removed, changed: moved },
    owners: { added: owners.added, removed: owners.removed, changed },
  };
}

/** Voting rights are compared once both snapshots hold them (a snapshot stored before did not). */
const votesChanged = (o: MonitoredOwner, n: MonitoredOwner) =>
  'voting_rights_percentage' in o &&
  'voting_rights_percentage' in n &&
  (o.voting_rights_percentage ?? null) !== (n.voting_rights_percentage ?? null);

function ownerTerms(o: MonitoredOwner): OwnerTerms {
  return {
    roles: o.roles,
    ownership_percentage: o.ownership_percentage,
    ...('voting_rights_percentage' in o
      ? { voting_rights_percentage: o.voting_rights_percentage ?? null }
      : {}),
  };
}

/** The reference's alert categories a change falls in. */
export function alertCategories(c: RegistryChanges): string[] {
  const out = new Set<string>();
  for (const f of c.fields) out.add(f.field === 'status' ? 'company_status' : 'operational_changes');
  if (c.officers.added.length || c.officers.removed.length || c.officers.changed?.length)
    out.add('legal_and_compliance');
  if (c.owners.added.length || c.owners.removed.length || c.owners.changed.length)
    out.add('shareholder_changes');
  return [...out];
}

/**
 * The snapshot as it was before `changes` (a diff that led to `snapshot`): the fields' old values,
 * the added parties taken out, the removed ones back, the changed owners' old roles and percentages,
 * the changed officers' old positions.
 */
export function revertChanges(snapshot: MonitoringSnapshot, changes: RegistryChanges): MonitoringSnapshot {
  const out: MonitoringSnapshot = structuredClone(snapshot);
  for (const f of changes.fields ?? []) {
    if (f.field === 'address') out.address = f.old as MonitoringSnapshot['address'];
    else out[f.field] = f.old as string;
  }
  const back = <T extends { key: string }>(list: T[], c: { added: T[]; removed: T[] }) => {
    const added = new Set((c.added ?? []).map((x) => x.key));
    const kept = (list ?? []).filter((x) => !added.has(x.key));
    const have = new Set(kept.map((x) => x.key));
    return [...kept, ...(c.removed ?? []).filter((x) => !have.has(x.key))].sort((a, b) =>
      a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
    );
  };
  out.officers = back(out.officers, changes.officers ?? { added: [], removed: [] });
  out.owners = back(out.owners, changes.owners ?? { added: [], removed: [] });
  const before = new Map((changes.owners?.changed ?? []).map((c) => [c.key, c.old]));
  out.owners = out.owners.map((o) => {
    const old = before.get(o.key);
    return old ? { ...o, ...old } : o;
  });
  const positions = new Map((changes.officers?.changed ?? []).map((c) => [c.key, c.old.position]));
  out.officers = out.officers.map((o) =>
    positions.has(o.key) ? { ...o, position: positions.get(o.key) ?? null } : o,
  );
  return out;
}
