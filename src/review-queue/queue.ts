import { sql } from 'kysely';
import { type Static, Type } from 'typebox';
import { CASE_STATUSES } from '../cases/schemas.ts';
import { CHECK_TYPES, CheckEnvelope } from '../checks/envelope-schema.ts';
import { presentCheckEnvelope } from '../checks/present.ts';
import type { Db } from '../db/connect.ts';
import type { CheckRow } from '../db/schema.ts';
import { withSerialPlans } from '../db/serial-plans.ts';
import { DateTime, Nullable, Uuid } from '../http/common-schemas.ts';
import { fetchPage, type ListSpec, type ParsedList, parseListQuery } from '../http/list-query.ts';
import { iso } from '../shared/time.ts';
import { withTagSpellings } from '../tags/tag-filter-spellings.ts';

/**
 * The review queue of the console: what waits for a reviewer across the workspace, in one call
 * per page (no request per row for the case or the person a check is on).
 */

const QueueCase = Type.Object({
  id: Uuid,
  name: Type.String(),
  external_id: Nullable(Type.String()),
  status: Type.Enum([...CASE_STATUSES]),
  assignee_id: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
});

export const QueueCheck = Type.Object(
  {
    check: CheckEnvelope,
    case: QueueCase,
    waiting_since: Type.String({
      format: 'date-time',
      description:
        "When the check entered need_review. A change of its data while it waits (a hit's review, a monitoring update) leaves it, where it moves the check's updated_at",
    }),
    subject: Type.Object({
      kind: Type.Enum(['company', 'individual']),
      id: Uuid,
      name: Type.String({ description: "The company's name, or the individual's first and last names" }),
    }),
  },
  { description: 'A check in need_review, with its case and what it is on' },
);

export const QueueCaseItem = Type.Object(
  {
    ...QueueCase.properties,
    last_activity_at: DateTime,
    checks_need_review: Type.Integer({ description: 'How many of its checks are in need_review' }),
  },
  { description: 'A case whose reviewer has actions (reviewer_has_actions)' },
);

export const queueCheckSpec: ListSpec = {
  filters: {
    type: { kind: 'set', values: CHECK_TYPES, column: 'k.type' },
    case_id: { kind: 'uuid', column: 'k.case_id' },
    assignee_id: { kind: 'text', column: 'c.assignee_id' },
    tags: { kind: 'array', column: 'c.tags' },
    case_status: { kind: 'set', values: CASE_STATUSES, column: 'c.status' },
    created_at: { kind: 'date', column: 'k.created_at' },
    updated_at: { kind: 'date', column: 'k.updated_at' },
    waiting_since: { kind: 'date', column: 'k.need_review_since' },
  },
  sort: ['waiting_since', 'updated_at', 'created_at'],
  sortColumns: {
    waiting_since: 'k.need_review_since',
    updated_at: 'k.updated_at',
    created_at: 'k.created_at',
  },
  idColumn: 'k.id',
  defaultSort: { field: 'waiting_since', desc: false },
};

/**
 * GET /v1/review-queue/checks: checks in need_review, longest waiting first by default (by
 * `waiting_since`, the moment each entered need_review). Planned
 * without parallel workers (src/db/serial-plans.ts): with a filter on the case, a parallel walk of
 * the waiting checks took a page from 8 ms to 0.5 s at 1,000,000 cases.
 */
export async function listQueueChecks(db: Db, workspaceId: string, query: Record<string, unknown>) {
  // parsed first: a malformed query is a 400 without opening a transaction
  const parsed = parseListQuery(queueCheckSpec, query);
  await withTagSpellings(db, workspaceId, parsed);
  return withSerialPlans(db, (trx) => queueChecksPage(trx, workspaceId, parsed));
}

async function queueChecksPage(db: Db, workspaceId: string, parsed: ParsedList) {
  const base = db
    .selectFrom('checks as k')
    .innerJoin('cases as c', 'c.id', 'k.case_id')
    .leftJoin('companies as co', 'co.id', 'k.company_id')
    .leftJoin('individuals as i', 'i.id', 'k.individual_id')
    .where('k.workspace_id', '=', workspaceId)
    .where('k.status', '=', 'need_review')
    .where('c.deleted_at', 'is', null)
    // as GET /v1/checks: checks of entities marked not relevant are left out
    .where(sql<boolean>`coalesce(co.is_relevant, i.is_relevant, true)`);
  const { rows, pagination } = await fetchPage(
    queueCheckSpec,
    parsed,
    base,
    (qb) =>
      qb
        .selectAll('k')
        .select([
          'c.name as case_name',
          'c.external_id as case_external_id',
          'c.status as case_status',
          'c.assignee_id as case_assignee_id',
          'c.tags as case_tags',
          'co.name as company_name',
          'i.first_name as individual_first_name',
          'i.last_name as individual_last_name',
        ]),
    db,
  );
  return {
    data: rows.map((r) => ({
      check: presentCheckEnvelope(r as unknown as CheckRow),
      // every row here is in need_review, so it has one (a row from before migration 0047 got its
      // updated_at); updated_at is only a guard against a writer that forgot it
      waiting_since: iso(r.need_review_since ?? r.updated_at),
      case: {
        id: r.case_id,
        name: r.case_name,
        external_id: r.case_external_id,
        status: r.case_status as (typeof CASE_STATUSES)[number],
        assignee_id: r.case_assignee_id,
        tags: r.case_tags,
      },
      subject: r.company_id
        ? { kind: 'company' as const, id: r.company_id, name: r.company_name ?? '' }
        : {
            kind: 'individual' as const,
            id: r.individual_id as string,
            name: [r.individual_first_name, r.individual_last_name].filter(Boolean).join(' '),
          },
    })) satisfies Static<typeof QueueCheck>[],
    pagination,
  };
}

export const queueCaseSpec: ListSpec = {
  filters: {
    status: { kind: 'set', values: CASE_STATUSES, column: 'c.status' },
    assignee_id: { kind: 'text', column: 'c.assignee_id' },
    tags: { kind: 'array', column: 'c.tags' },
    last_activity_at: { kind: 'date', column: 'c.last_activity_at' },
  },
  sort: ['last_activity_at', 'created_at'],
  sortColumns: { last_activity_at: 'c.last_activity_at', created_at: 'c.created_at' },
  idColumn: 'c.id',
  defaultSort: { field: 'last_activity_at', desc: false },
};

/** GET /v1/review-queue/cases: cases whose reviewer has actions, least recently active first. */
export async function listQueueCases(db: Db, workspaceId: string, query: Record<string, unknown>) {
  const parsed = await withTagSpellings(db, workspaceId, parseListQuery(queueCaseSpec, query));
  const base = db
    .selectFrom('cases as c')
    .where('c.workspace_id', '=', workspaceId)
    .where('c.deleted_at', 'is', null)
    .where('c.reviewer_has_actions', '=', true);
  const { rows, pagination } = await fetchPage(
    queueCaseSpec,
    parsed,
    base,
    (qb) =>
      qb
        .select([
          'c.id',
          'c.name',
          'c.external_id',
          'c.status',
          'c.assignee_id',
          'c.tags',
          'c.last_activity_at',
        ])
        .select(
          sql<string>`(select count(*) from checks k where k.case_id = c.id and k.status = 'need_review')`.as(
            'checks_need_review',
          ),
        ),
    db,
  );
  return {
    data: rows.map((r) => ({
      id: r.id,
      name: r.name,
      external_id: r.external_id,
      status: r.status as (typeof CASE_STATUSES)[number],
      assignee_id: r.assignee_id,
      tags: r.tags,
      last_activity_at: iso(r.last_activity_at),
      checks_need_review: Number(r.checks_need_review),
    })) satisfies Static<typeof QueueCaseItem>[],
    pagination,
  };
}
