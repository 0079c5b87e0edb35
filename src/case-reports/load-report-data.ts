import { type Selectable, sql } from 'kysely';
import { findCaseById } from '../cases/repository.ts';
import { checkEnvelopesByEntity } from '../checks/repository.ts';
import type { Db } from '../db/connect.ts';
import type {
  CaseReviewsTable,
  CaseRow,
  CheckRow,
  CompaniesTable,
  EventsTable,
  IndividualsTable,
  NoteCommentRow,
  NotesTable,
  RelationsTable,
} from '../db/schema.ts';
import { commentsByNote } from '../notes/repository.ts';
import { isolate } from '../shared/bidi-text.ts';
import { UUID_RE } from '../shared/pg-errors.ts';
import { nestedUsersById } from '../users/nested-user.ts';

/** Most recent activities shown in a report's timeline (older ones are counted, not listed). */
export const TIMELINE_LIMIT = 500;

export type ReportEvent = Pick<
  Selectable<EventsTable>,
  'id' | 'type' | 'activity_type' | 'actor_type' | 'actor_id' | 'company_id' | 'individual_id' | 'created_at'
> & { check_type: string | null };

/** Everything a case report shows, read in a fixed number of queries whatever the case's size. */
export interface ReportData {
  kase: CaseRow;
  assignee: { first_name: string; last_name: string; email: string } | null;
  companies: Selectable<CompaniesTable>[];
  individuals: Selectable<IndividualsTable>[];
  relations: Selectable<RelationsTable>[];
  checks: CheckRow[];
  reviews: Selectable<CaseReviewsTable>[];
  notes: (Selectable<NotesTable> & { comments: NoteCommentRow[] })[];
  events: ReportEvent[];
  eventsTotal: number;
  /**
   * The case's companies and individuals deleted since, named as their deletion event recorded
   * them: the timeline still shows what was done to them (a rejected document, the deletion).
   */
  deleted: { id: string; name: string }[];
  /** The workspace's users who reviewed, wrote or acted in the case: `First Last <email>` by id. */
  users: Map<string, string>;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Creation order; entities created together (one case creation) by name, `Person 2` before `Person 10`. */
function byTimeThenName(a: { created_at: Date }, b: { created_at: Date }, nameA: string, nameB: string) {
  return (
    new Date(a.created_at).getTime() - new Date(b.created_at).getTime() || collator.compare(nameA, nameB)
  );
}

/** The report's data of a live case of the workspace, or undefined (deleted or foreign case). */
export async function loadReportData(
  db: Db,
  workspaceId: string,
  caseId: string,
): Promise<ReportData | undefined> {
  const kase = await findCaseById(db, workspaceId, caseId);
  if (!kase) return undefined;
  const [assignee, companies, individuals, relations, checks, reviews, notes, events, count, deletions] =
    await Promise.all([
      // assignee_id was free text before it was checked (a CRM's user id...): only a uuid can name one of our users
      kase.assignee_id && UUID_RE.test(kase.assignee_id)
        ? db
            .selectFrom('users')
            .select(['first_name', 'last_name', 'email'])
            .where('workspace_id', '=', workspaceId)
            .where('id', '=', kase.assignee_id)
            .executeTakeFirst()
        : undefined,
      db
        .selectFrom('companies')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('case_id', '=', caseId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
      db
        .selectFrom('individuals')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('case_id', '=', caseId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
      db
        .selectFrom('relations')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('case_id', '=', caseId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
      checkEnvelopesByEntity(db, caseId, false),
      db
        .selectFrom('case_reviews')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('case_id', '=', caseId)
        .orderBy('reviewed_at')
        .orderBy('id')
        .execute(),
      db
        .selectFrom('notes')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('case_id', '=', caseId)
        .orderBy('created_at')
        .orderBy('id')
        .execute()
        // comments of all the notes in one more query, grouped by note
        .then(async (rows) => ({
          rows,
          comments: await commentsByNote(
            db,
            workspaceId,
            rows.map((n) => n.id),
          ),
        })),
      db
        .selectFrom('events')
        .select([
          'id',
          'type',
          'activity_type',
          'actor_type',
          'actor_id',
          'company_id',
          'individual_id',
          'created_at',
        ])
        // the check's type for check activities (`started check (ekyc)`)
        .select(sql<string | null>`payload->'check'->>'type'`.as('check_type'))
        .where('workspace_id', '=', workspaceId)
        .where('case_id', '=', caseId)
        .where('activity_type', 'is not', null)
        .orderBy('seq', 'desc')
        .limit(TIMELINE_LIMIT)
        .execute(),
      db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .where('case_id', '=', caseId)
        .where('activity_type', 'is not', null)
        .executeTakeFirstOrThrow(),
      // a deleted entity's row is gone (a hard delete): its deletion event holds it as it was
      db
        .selectFrom('events')
        .select(sql<unknown>`payload->'company'`.as('company'))
        .select(sql<unknown>`payload->'individual'`.as('individual'))
        .where('workspace_id', '=', workspaceId)
        .where('case_id', '=', caseId)
        .where('type', 'in', ['Company.Deleted', 'Individual.Deleted'])
        .orderBy('seq')
        .execute(),
    ]);
  const comments = [...notes.comments.values()].flat();
  const users = await userNames(db, workspaceId, [
    ...reviews.map((r) => r.user_id),
    ...notes.rows.map((n) => n.author_id),
    ...comments.map((c) => c.author_id),
    ...events.filter((e) => e.actor_type === 'user').map((e) => e.actor_id),
  ]);
  return {
    kase,
    assignee: assignee ?? null,
    companies: companies.sort(
      (a, b) => Number(b.type === 'main') - Number(a.type === 'main') || byTimeThenName(a, b, a.name, b.name),
    ),
    individuals: individuals.sort((a, b) =>
      byTimeThenName(a, b, `${a.last_name} ${a.first_name}`, `${b.last_name} ${b.first_name}`),
    ),
    relations,
    checks,
    reviews,
    notes: notes.rows.map((n) => ({ ...n, comments: notes.comments.get(n.id) ?? [] })),
    events: events.reverse(),
    eventsTotal: Number(count.n),
    deleted: deletions.flatMap((row) => {
      const entity = json(row.company) ?? json(row.individual);
      if (!entity || typeof entity.id !== 'string') return [];
      const name = row.company ? entity.name : individualName(entity);
      return typeof name === 'string' && name ? [{ id: entity.id, name }] : [];
    }),
    users,
  };
}

/** A jsonb value as an object (the embedded database may hand it over as text). */
function json(v: unknown): Record<string, unknown> | null {
  const o = typeof v === 'string' ? JSON.parse(v) : v;
  return o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : null;
}

/** `First Last <email>` of the workspace's users among `ids`, in one query. */
async function userNames(db: Db, workspaceId: string, ids: (string | null | undefined)[]) {
  const users = await nestedUsersById(db, workspaceId, ids);
  return new Map([...users].map(([id, u]) => [id, personName(u)]));
}

/**
 * How the report names the case's companies and individuals, by id: isolated (a name in Arabic or
 * Hebrew keeps its own direction inside the sentences it is set in, src/shared/bidi-text.ts); one
 * deleted since is named as it was, and said to be deleted (`Иван Ковалёв (deleted)`).
 */
export function entityNames(
  d: Pick<ReportData, 'companies' | 'individuals' | 'deleted'>,
): Map<string, string> {
  return new Map<string, string>([
    ...d.deleted.map((e) => [e.id, `${isolate(e.name)} (deleted)`] as [string, string]),
    ...d.companies.map((c) => [c.id, isolate(c.name)] as [string, string]),
    ...d.individuals.map((i) => [i.id, isolate(individualName(i))] as [string, string]),
  ]);
}

/**
 * An individual's full name, the middle name included: the name AML screening runs on ("first
 * middle last"), so the one a reader must see (`Ada Lovelace` left `King` out).
 */
export function individualName(i: {
  first_name?: unknown;
  middle_name?: unknown;
  last_name?: unknown;
}): string {
  return [i.first_name, i.middle_name, i.last_name]
    .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
    .join(' ');
}

/** How the report names a user: `First Last <email>`, the name isolated as entities' are. */
export function personName(u: { first_name?: unknown; last_name?: unknown; email?: unknown }): string {
  const name = isolate([u.first_name, u.last_name].filter((v) => typeof v === 'string' && v).join(' '));
  return typeof u.email === 'string' && u.email ? (name ? `${name} <${u.email}>` : u.email) : name;
}
