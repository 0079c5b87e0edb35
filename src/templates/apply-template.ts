import type { AppContext, EntityChange } from '../app-context.ts';
import { loadCaseGraph } from '../cases/repository.ts';
import type { CheckTypeDefinition } from '../checks/check-type.ts';
import { withCaseRefreshDeferred } from '../checks/engine/case-effects.ts';
import { CHECK_LIMIT_REACHED } from '../checks/engine/check-limit.ts';
import { createCheckInTransaction } from '../checks/engine/create-check.ts';
import type { Db } from '../db/connect.ts';
import type {
  CaseRow,
  CheckRow,
  CompanyRow,
  IndividualRow,
  TemplateCheckSpec,
  TemplateRow,
} from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { ascendingIds } from '../shared/ascending-ids.ts';
import { evaluateAutoApproval, withAutoApprovalSuspended } from './auto-approval.ts';
import type { TemplateTarget } from './schemas.ts';
import { enabledCheckType, TARGET_KINDS } from './validate-checks.ts';

type Entity = { kind: 'company'; row: CompanyRow } | { kind: 'individual'; row: IndividualRow };

export interface ApplyOptions {
  /** Input order of the case's entities (case creation): errors then name `individuals[1]`. */
  companyIds?: string[];
  individualIds?: string[];
  /**
   * Leave alone an entity that already has a check of the type (and subtype): from this template, or
   * from elsewhere (a former template, by hand), which this template then adopts (the template
   * follows the case: entities added later, made targets, or the case given a template).
   */
  skipExisting?: boolean;
  /**
   * Only this entity gets checks (one added, or made a target by an update): the rest of the case
   * is left as it is, so a template check someone deleted on another entity is not created again.
   */
  onlyEntityId?: string;
  /**
   * The request's field that made the entity a target (an update's `is_business_contact`...): a
   * refusal's detail names it, since the entity's id is the request's path, not a body field.
   */
  causePath?: string;
  /**
   * The entity this request creates (`POST /v1/individuals`): a refusal names the request's own
   * field (`email`), and not the entity's id, which its rollback leaves naming nothing.
   */
  createdEntityId?: string;
}

const hasRole = (roles: unknown, role: string) => Array.isArray(roles) && roles.includes(role);

/** The relevant entities of the case each target selects, in the case's order. */
function select(
  graph: {
    companies: CompanyRow[];
    individuals: IndividualRow[];
    relations: { from_company_id: string | null; from_individual_id: string | null; roles: unknown }[];
  },
  target: TemplateTarget,
): Entity[] {
  const companies = (pred: (c: CompanyRow) => boolean): Entity[] =>
    graph.companies.filter(pred).map((row) => ({ kind: 'company', row }));
  const individuals = (pred: (i: IndividualRow) => boolean): Entity[] =>
    graph.individuals.filter(pred).map((row) => ({ kind: 'individual', row }));
  switch (target) {
    case 'main_company':
      return companies((c) => c.type === 'main');
    case 'companies':
      return companies(() => true);
    case 'individuals':
      return individuals(() => true);
    case 'beneficial_owners':
      return individuals((i) => i.is_beneficial_owner);
    case 'business_contacts':
      return individuals((i) => i.is_business_contact);
    case 'signatories':
      return individuals((i) => i.is_signatory);
    case 'legal_representatives': {
      const reps = new Set(
        graph.relations
          .filter((r) => hasRole(r.roles, 'legal_representative'))
          .map((r) => r.from_individual_id ?? r.from_company_id),
      );
      return [
        ...individuals((i) => hasRole(i.roles, 'legal_representative') || reps.has(i.id)),
        ...companies((c) => reps.has(c.id)),
      ];
    }
  }
}

/**
 * The entity and relation columns `select` reads (the graph holds relevant entities only): an
 * update that changes none of them cannot make a new target.
 */
const TARGET_COLUMNS = [
  'type',
  'roles',
  'is_beneficial_owner',
  'is_business_contact',
  'is_signatory',
  'is_relevant',
] as const;

/** The targeting columns an update changed, in TARGET_COLUMNS' order. */
function changedTargetColumns(before: object, after: object): string[] {
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  return TARGET_COLUMNS.filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]));
}

/** True when an updated company, individual or relation may have become (or stopped being) a target. */
export function changesTargets(before: object, after: object): boolean {
  return changedTargetColumns(before, after).length > 0;
}

/**
 * The one entity a change may have made a target (a relation: its source), and the field to name
 * if its checks are refused. The rest of the case is left alone: a template check someone deleted
 * on another entity is not created again by an unrelated addition or update.
 */
export function targetOfChange(
  change: EntityChange,
): Pick<ApplyOptions, 'onlyEntityId' | 'causePath' | 'createdEntityId'> {
  if ('added' in change)
    return { onlyEntityId: change.added, ...(change.created ? { createdEntityId: change.added } : {}) };
  const row = change.after as {
    id: string;
    from_individual_id?: string | null;
    from_company_id?: string | null;
  };
  const isRelation = row.from_individual_id !== undefined || row.from_company_id !== undefined;
  const entityId = isRelation ? (row.from_individual_id ?? row.from_company_id ?? row.id) : row.id;
  return {
    onlyEntityId: entityId,
    causePath: changedTargetColumns(change.before, change.after)[0],
  };
}

function sortByInput<T extends { id: string }>(rows: T[], order?: string[]): T[] {
  if (!order) return rows;
  const pos = new Map(order.map((id, i) => [id, i]));
  return [...rows].sort((a, b) => (pos.get(a.id) ?? 1e9) - (pos.get(b.id) ?? 1e9));
}

function describe(e: Entity, opts: ApplyOptions) {
  const name =
    e.kind === 'company' ? e.row.name : [e.row.first_name, e.row.last_name].filter(Boolean).join(' ');
  const order = e.kind === 'company' ? opts.companyIds : opts.individualIds;
  const idx = order?.indexOf(e.row.id) ?? -1;
  if (idx >= 0) {
    const path = `${e.kind === 'company' ? 'companies' : 'individuals'}[${idx}]`;
    return { path, label: `${path} (${name})` };
  }
  // the body being created: its fields are the request's own, and its id will not exist
  if (opts.createdEntityId === e.row.id) return { path: '', label: `the ${e.kind} being created (${name})` };
  return { path: `${e.kind}_id`, label: `${e.kind} ${e.row.id} (${name})` };
}

/**
 * Creates a template's checks on the case's entities, in the caller's transaction (case creation
 * or a template run). A check that cannot be created fails the whole request with a 400 naming
 * the entity and the reason: nothing is half-created. An entity selected twice for the same check
 * type (e.g. `individuals` and `beneficial_owners`) gets one check. Auto-approval is evaluated once
 * every check exists.
 */
export async function applyTemplate(
  ctx: AppContext,
  trx: Db,
  workspaceId: string,
  caseId: string,
  template: TemplateRow,
  opts: ApplyOptions = {},
): Promise<{ checks: CheckRow[]; companyIds: string[]; individualIds: string[] }> {
  const raw = await loadCaseGraph(trx, caseId, false);
  const graph = {
    ...raw,
    companies: sortByInput(raw.companies, opts.companyIds),
    individuals: sortByInput(raw.individuals, opts.individualIds),
  };
  const created: CheckRow[] = [];
  const done = new Set<string>();
  // an entity's checks of another origin (a former template of the case, or made by hand), per
  // type, subtype and entity: the one this template would create is adopted instead (below)
  const elsewhere = new Map<string, string>();
  if (opts.skipExisting) {
    // every check of the case counts, whatever made it: switching a case to a template that also
    // asks for an ekyc must not run a second ekyc on the same person (walk 56-B)
    const existing = await trx
      .selectFrom('checks')
      .select(['id', 'type', 'subtype', 'company_id', 'individual_id', 'template_id'])
      .where('case_id', '=', caseId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    for (const c of existing) {
      const key = `${c.type}:${c.subtype ?? ''}:${c.company_id ?? c.individual_id}`;
      if (c.template_id === template.id) done.add(key);
      else if (!elsewhere.has(key)) elsewhere.set(key, c.id);
    }
    for (const key of done) elsewhere.delete(key);
  }
  const adopted: string[] = [];
  // planned first, so that the checks get ascending ids: created in one transaction they share one
  // created_at, and reads order them by (created_at, id), i.e. in the template's order this way
  const planned: { def: CheckTypeDefinition; spec: TemplateCheckSpec; e: Entity }[] = [];
  for (const spec of template.checks) {
    const def = enabledCheckType(spec.type);
    if (!def)
      throw new ApiError(400, `Template "${template.key}": the ${spec.type} check type is not enabled`);
    for (const target of spec.targets as TemplateTarget[]) {
      const kinds = TARGET_KINDS[target].filter((k) => def.targets.includes(k));
      for (const e of select(graph, target)) {
        if (!kinds.includes(e.kind)) continue;
        if (opts.onlyEntityId && opts.onlyEntityId !== e.row.id) continue;
        // one check per type, subtype (document: its document type) and entity
        const subtype = def.subtypeOf?.(spec.settings ?? {}) ?? '';
        const once = `${def.type}:${subtype}:${e.row.id}`;
        if (done.has(once)) continue;
        done.add(once);
        const existing = elsewhere.get(once);
        if (existing) adopted.push(existing);
        else planned.push({ def, spec, e });
      }
    }
  }
  // the newest such check now stands for this template's: its auto-approval waits for it, as it
  // would for the check it did not create
  if (adopted.length) {
    await trx.updateTable('checks').set({ template_id: template.id }).where('id', 'in', adopted).execute();
  }
  const ids = ascendingIds(planned.length);
  await withAutoApprovalSuspended(trx, () =>
    // the case's flags and *_has_actions follow once every check exists (one set of events)
    withCaseRefreshDeferred(trx, async () => {
      for (const [i, { def, spec, e }] of planned.entries()) {
        const body = {
          [e.kind === 'company' ? 'company_id' : 'individual_id']: e.row.id,
          settings: spec.settings ?? {},
        };
        try {
          created.push(
            await createCheckInTransaction(ctx, trx, workspaceId, def, body, {
              templateId: template.id,
              id: ids[i],
            }),
          );
        } catch (err) {
          if (!(err instanceof ApiError) || err.statusCode >= 500) throw err;
          const { path, label } = describe(e, opts);
          // the workspace's limit is no field of the entity: the entity is what could not be checked
          const reason = err.code === CHECK_LIMIT_REACHED ? undefined : err.details?.[0]?.path;
          const message = `Template "${template.key}" could not create its ${def.type} check for ${label}: ${err.message}`;
          // a specific code (CHECK_LIMIT_REACHED) stays the answer's code
          throw new ApiError(
            400,
            message,
            [
              {
                path:
                  opts.causePath ??
                  (path === ''
                    ? reason && reason !== `${e.kind}_id`
                      ? reason
                      : 'case_id'
                    : reason && reason !== `${e.kind}_id`
                      ? `${path}.${reason}`
                      : path),
                message,
              },
            ],
            err.code,
          );
        }
      }
    }),
  );
  let caseRow = (await trx
    .selectFrom('cases')
    .selectAll()
    .where('id', '=', caseId)
    .forNoKeyUpdate()
    .executeTakeFirstOrThrow()) as CaseRow;
  // a whole run (POST /v1/templates/run) creates every check of the template again, a deleted one
  // included: the template decides the case again (src/templates/auto-approval.ts)
  if (caseRow.template_check_deleted_at && !opts.skipExisting && !opts.onlyEntityId) {
    caseRow = (await trx
      .updateTable('cases')
      .set({ template_check_deleted_at: null })
      .where('id', '=', caseId)
      .returningAll()
      .executeTakeFirstOrThrow()) as CaseRow;
  }
  await evaluateAutoApproval(trx, caseRow);
  const uniq = (kind: 'company_id' | 'individual_id') => [
    ...new Set(created.map((c) => c[kind]).filter((x): x is string => !!x)),
  ];
  return { checks: created, companyIds: uniq('company_id'), individualIds: uniq('individual_id') };
}
