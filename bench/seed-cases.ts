/**
 * Issue 17: a PostgreSQL database of many cases for the list endpoints (LISTS below), shared by
 * bench/list-plans.ts (query plans) and bench/lists-1m.ts (HTTP latency).
 *
 * The cases are seeded in one `insert ... select ... from generate_series` (a million in about a
 * minute), with a spread close to a real workspace: statuses weighted as in production-like data,
 * about 5% tagged `vip` among a few tags, one assignee among 40 (30% unassigned), names from word
 * lists, created_at over two years with updated_at and last_activity_at after it, 1% soft-deleted.
 * Each case has one main company and one individual (insertMembers), a check on each
 * (insertChecks), the webhook deliveries of its creation (insertDeliveries), its events
 * (insertActivities: the activity list) and its audit entries (insertAuditLog). A second workspace
 * holds a few hundred cases of its own, so the tenant condition filters rows.
 */
import { Kysely, type KyselyConfig, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../src/db/connect.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createWorkspace } from '../src/workspaces/repository.ts';

export interface SeededCases {
  workspaceId: string;
  apiKey: string;
  otherWorkspaceId: string;
  cases: number;
}

/** Drops and recreates the database named by `databaseUrl` (through the server's `postgres` database). */
export async function recreateDatabase(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  if (['test', 'test_lead', 'bench', 'postgres'].includes(name) && !process.env.SEED_CASES_ALLOW_ANY_DB) {
    throw new Error(`refusing to drop database "${name}"`);
  }
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}

/** A Kysely over `pg` on the database, as the service opens it (src/db/connect.ts). */
export function openDb(databaseUrl: string, log?: KyselyConfig['log']): Db {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  return new Kysely({ dialect: new PostgresDialect({ pool }), log });
}

/**
 * Inserts `n` cases into `workspaceId` in one statement. `seed` makes the data reproducible
 * (setseed runs on the same connection, inside the transaction).
 */
export async function insertCases(db: Db, workspaceId: string, n: number, seed = 0.17): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select setseed(${seed})`.execute(trx);
    await sql`
      insert into cases (id, workspace_id, external_id, name, status, assignee_id, tags, metadata,
        reviewer_has_actions, created_at, updated_at, last_activity_at, deleted_at)
      select gen_random_uuid(), ${workspaceId},
        case when r_ext < 0.7 then 'EXT-' || lpad(g::text, 8, '0') end,
        (array['Acme','Globex','Initech','Umbrella','Stark','Wayne','Tyrell','Cyberdyne','Soylent','Hooli',
               'Vandelay','Wonka','Gringotts','Oceanic','Nakatomi','Monarch','Pied Piper','Aperture',
               'Black Mesa','Dunder Mifflin'])[1 + floor(r_w1 * 20)::int]
          || ' ' ||
        (array['Holding','Trading','Logistics','Capital','Foods','Energy','Labs','Partners','Media',
               'Systems','Retail','Pharma'])[1 + floor(r_w2 * 12)::int]
          || ' ' ||
        (array['SAS','GmbH','Ltd','BV','SpA','SA','Inc','LLC','AB','Oy'])[1 + floor(r_w3 * 10)::int]
          || ' ' || (1 + floor(r_num * 9999))::int,
        case when r_status < 0.25 then 'open' when r_status < 0.30 then 'draft'
             when r_status < 0.75 then 'approved' when r_status < 0.85 then 'rejected' else 'closed' end,
        case when r_assignee < 0.3 then null else 'usr_' || lpad((1 + floor(r_assignee * 1000)::int % 40)::text, 2, '0') end,
        array_remove(array[
          case when r_vip < 0.05 then 'vip' end,
          case when r_tag1 < 0.20 then 'eu' end,
          case when r_tag2 < 0.10 then 'high_risk' end,
          case when r_tag3 < 0.03 then 'pep' end], null),
        jsonb_build_object('source', 'bench', 'crm_id', g::text),
        r_tag3 > 0.97,
        created,
        created + (last_activity - created) * r_upd,
        last_activity,
        case when r_del < 0.01 then last_activity end
      from (
        select g, created, created + (now() - created) * power(r_act, 3) as last_activity,
          r_ext, r_w1, r_w2, r_w3, r_num, r_status, r_assignee, r_vip, r_tag1, r_tag2, r_tag3, r_upd, r_del
        from (
          select g, now() - random() * interval '730 days' as created, random() as r_act,
            random() as r_ext, random() as r_w1, random() as r_w2, random() as r_w3, random() as r_num,
            random() as r_status, random() as r_assignee, random() as r_vip, random() as r_tag1,
            random() as r_tag2, random() as r_tag3, random() as r_upd, random() as r_del
          from generate_series(1, ${n}::int) g
        ) r
      ) s
    `.execute(trx);
  });
}

/**
 * One main company and one individual for every case of `workspaceId` (what the company and
 * individual lists read), in two statements. Each member takes its case's dates (created with the
 * case, last active when the case was), its company's name is the case's name; countries, names,
 * e-mail domains and birth dates are drawn from short lists, weighted like a European book.
 */
export async function insertMembers(db: Db, workspaceId: string, seed = 0.29): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select setseed(${seed})`.execute(trx);
    await sql`
      insert into companies (id, workspace_id, case_id, type, name, country, registration_number,
        created_at, updated_at, last_activity_at)
      select gen_random_uuid(), c.workspace_id, c.id, 'main', c.name,
        case when r_country < 0.35 then 'FR' when r_country < 0.60 then 'DE' when r_country < 0.75 then 'GB'
             when r_country < 0.85 then 'NL' when r_country < 0.92 then 'IT' when r_country < 0.97 then 'ES'
             else 'LU' end,
        lpad((floor(r_reg * 1e9))::bigint::text, 9, '0'),
        c.created_at, c.created_at + (c.last_activity_at - c.created_at) * r_upd, c.last_activity_at
      from (select *, random() as r_country, random() as r_reg, random() as r_upd
            from cases where workspace_id = ${workspaceId}) c
    `.execute(trx);
    await sql`
      insert into individuals (id, workspace_id, case_id, roles, is_beneficial_owner, first_name, last_name,
        email, birth_date, created_at, updated_at, last_activity_at)
      select gen_random_uuid(), workspace_id, id, array['legal_representative'], r_ubo < 0.6, first_name, last_name,
        lower(first_name) || '.' || lower(last_name) || (1 + floor(r_num * 999))::int || '@' ||
          (array['example.com','example.org','example.net','mail.example','corp.example'])[1 + floor(r_dom * 5)::int],
        to_char(date '1940-01-01' + floor(r_birth * 23000)::int, 'YYYY-MM-DD'),
        created_at, created_at + (last_activity_at - created_at) * r_upd, last_activity_at
      from (
        select c.*,
          (array['Marie','Jean','Anna','Lukas','Sophie','Thomas','Emma','Pierre','Laura','Max','Julia','Paul',
                 'Sarah','Luca','Clara','Hugo','Eva','Noah','Lea','Adam'])[1 + floor(random() * 20)::int] as first_name,
          (array['Martin','Bernard','Dubois','Muller','Schmidt','Schneider','Smith','Jones','Taylor','Rossi',
                 'Russo','Garcia','Lopez','de Vries','Jansen','Petit','Durand','Leroy','Moreau','Fischer',
                 'Weber','Wagner','Brown','Wilson','Bianchi','Romano','Martinez','Bakker','Visser','Lambert'])
            [1 + floor(random() * 30)::int] as last_name,
          random() as r_ubo, random() as r_num, random() as r_dom, random() as r_birth, random() as r_upd
        from cases c where workspace_id = ${workspaceId}
      ) s
    `.execute(trx);
  });
}

/**
 * Two checks for every case of `workspaceId` (what the check list reads), in one statement: one on
 * its main company (`aml` or `document`) and one on its individual (`id_document`, `ekyc` or `aml`).
 * Statuses are weighted like a book at rest (most approved, a few waiting for review); each check is
 * created during its case's life and last active between then and the case's last activity.
 */
export async function insertChecks(db: Db, workspaceId: string, seed = 0.41): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select setseed(${seed})`.execute(trx);
    await sql`
      insert into checks (id, workspace_id, case_id, company_id, individual_id, type, status, data,
        created_at, updated_at, last_activity_at)
      select gen_random_uuid(), workspace_id, case_id, company_id, individual_id, type,
        case when r_status < 0.60 then 'approved' when r_status < 0.68 then 'rejected'
             when r_status < 0.73 then 'need_review' when r_status < 0.93 then 'in_progress'
             when r_status < 0.95 then 'processing' else 'expired' end,
        jsonb_build_object('provider', 'idd_provider_1', 'score', round((r_status * 100)::numeric, 1)),
        created, created + (last_activity - created) * r_upd, last_activity
      from (
        select m.*, created + (case_last - created) * r_act as last_activity
        from (
          select co.workspace_id, co.case_id, co.id as company_id, null::uuid as individual_id,
            case when random() < 0.7 then 'aml' else 'document' end as type,
            co.created_at + (co.last_activity_at - co.created_at) * random() * 0.2 as created,
            co.last_activity_at as case_last, random() as r_status, random() as r_upd, random() as r_act
          from companies co where co.workspace_id = ${workspaceId}
          union all
          select i.workspace_id, i.case_id, null, i.id,
            (array['id_document', 'id_document', 'ekyc', 'aml', 'ekyc'])[1 + floor(random() * 5)::int],
            i.created_at + (i.last_activity_at - i.created_at) * random() * 0.2,
            i.last_activity_at, random(), random(), random()
          from individuals i where i.workspace_id = ${workspaceId}
        ) m
      ) s
    `.execute(trx);
    // a waiting check entered need_review between its creation and its last update (a hit review
    // may have updated it since: migration 0047)
    await sql`
      update checks set need_review_since = created_at + (updated_at - created_at) * 0.5
      where workspace_id = ${workspaceId} and status = 'need_review'
    `.execute(trx);
  });
}

/**
 * One webhook for `workspaceId` and its deliveries (what the webhook log lists): for every case, the
 * events of its creation (`Case.Created`, `Company.Created`, `Individual.Created`), each delivered
 * once when the case was created, 2% failed, a few pending; in one statement. Call after
 * insertMembers.
 */
export async function insertDeliveries(db: Db, workspaceId: string, seed = 0.53): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select setseed(${seed})`.execute(trx);
    const hook = await sql<{ id: string }>`
      insert into webhooks (id, workspace_id, name, url, events, secret)
      values (gen_random_uuid(), ${workspaceId}, 'bench', 'https://hooks.example/bench', array['*'], 'whsec_bench')
      returning id`.execute(trx);
    await sql`
      insert into webhook_deliveries (id, workspace_id, webhook_id, event_id, event, case_id, company_id,
        individual_id, payload, status, attempt_count, last_attempt_at, last_status_code, event_created_at,
        created_at, updated_at)
      select gen_random_uuid(), workspace_id, ${hook.rows[0].id}, gen_random_uuid(), event, case_id, company_id,
        individual_id,
        '{"type":"' || event || '","case_id":"' || case_id || '","data":{"source":"bench","padding":"' ||
          repeat('x', 300) || '"}}',
        case when r < 0.02 then 'failed' when r < 0.025 then 'pending' else 'delivered' end,
        case when r < 0.02 then 8 else 1 end, created_at, case when r < 0.02 then 500 else 200 end,
        created_at, created_at, created_at
      from (
        select workspace_id, id as case_id, null::uuid as company_id, null::uuid as individual_id,
          'Case.Created' as event, created_at, random() as r
        from cases where workspace_id = ${workspaceId}
        union all
        select workspace_id, case_id, id, null, 'Company.Created', created_at, random()
        from companies where workspace_id = ${workspaceId}
        union all
        select workspace_id, case_id, null, id, 'Individual.Created', created_at, random()
        from individuals where workspace_id = ${workspaceId}
      ) e
    `.execute(trx);
  });
}

/**
 * Twelve console users of `workspaceId` (who reviews checks and decides cases in the events and the
 * audit log), their ids in e-mail order.
 */
async function insertUsers(db: Db, workspaceId: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    insert into users (id, workspace_id, first_name, last_name, email, role)
    select gen_random_uuid(), ${workspaceId}, 'Reviewer', lpad(g::text, 2, '0'),
      'reviewer' || lpad(g::text, 2, '0') || '@bank.example', case when g = 1 then 'admin' else 'member' end
    from generate_series(1, 12) g
    returning id`.execute(db);
  return rows.map((r) => r.id);
}

/**
 * The events of every case of `workspaceId` (what the activity list reads), in one statement, in
 * time order so that `seq` follows `created_at` as commits make it: the case's, its company's and
 * its individual's creation, each check started, decided (approved or rejected, by the engine or
 * for a quarter by a reviewer) or set for review, the case's decision (a reviewer for 60%) and,
 * for half the cases, an event that is not an activity (Case.ReviewerHasActionsUpdated). About 7.5
 * events per case. Call after insertChecks.
 */
export async function insertActivities(db: Db, workspaceId: string, seed = 0.61): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const users = await insertUsers(trx as unknown as Db, workspaceId);
    await sql`select setseed(${seed})`.execute(trx);
    await sql`
      insert into events (id, workspace_id, case_id, type, payload, created_at, actor_type, actor_id,
        company_id, individual_id, activity_type)
      select gen_random_uuid(), ${workspaceId}, case_id, type,
        jsonb_build_object('type', type, 'case_id', case_id, 'data', jsonb_build_object('source', 'bench',
          'padding', repeat('x', 400))),
        at, actor_type, actor_id, company_id, individual_id, activity_type
      from (
        select id as case_id, null::uuid as company_id, null::uuid as individual_id, 'Case.Created' as type,
          created_at as at, 'api' as actor_type, null::uuid as actor_id, 'api__created__case' as activity_type
        from cases where workspace_id = ${workspaceId}
        union all
        select case_id, id, null, 'Company.Created', created_at, 'api', null, 'api__created__company'
        from companies where workspace_id = ${workspaceId}
        union all
        select case_id, null, id, 'Individual.Created', created_at, 'api', null, 'api__created__individual'
        from individuals where workspace_id = ${workspaceId}
        union all
        select case_id, company_id, individual_id, 'Check.Started', created_at, 'api', null, 'api__started__check'
        from checks where workspace_id = ${workspaceId}
        union all
        select case_id, company_id, individual_id,
          case when status = 'approved' then 'Check.Approved' else 'Check.Rejected' end, last_activity_at,
          actor, case when actor = 'user' then (${users}::uuid[])[1 + floor(random() * 12)::int] end,
          actor || case when status = 'approved' then '__approved__check' else '__rejected__check' end
        from (select *, case when random() < 0.25 then 'user' else 'system' end as actor
              from checks where workspace_id = ${workspaceId} and status in ('approved', 'rejected')) k
        union all
        select case_id, company_id, individual_id, 'Check.ReviewNeeded', updated_at, 'system', null,
          'system__set_review_needed__check'
        from checks where workspace_id = ${workspaceId} and status = 'need_review'
        union all
        select id, null, null, 'Case.StatusUpdated', last_activity_at, actor,
          case when actor = 'user' then (${users}::uuid[])[1 + floor(random() * 12)::int] end,
          actor || '__updated_status__case'
        from (select *, case when random() < 0.6 then 'user' else 'api' end as actor
              from cases where workspace_id = ${workspaceId} and status in ('approved', 'rejected', 'closed')) c
        union all
        select id, null, null, 'Case.ReviewerHasActionsUpdated', last_activity_at, 'system', null, null
        from cases where workspace_id = ${workspaceId} and random() < 0.5
      ) e
      order by at
    `.execute(trx);
  });
}

/**
 * The audit log of `workspaceId`, in one statement: each case's creation by the API key, each
 * check's, a reviewer's decision on a quarter of the decided checks, 3% of case creations refused
 * (400 or 422, no resource), and the reviewers' console logins (most days). About 3.4 entries per
 * case. Call after insertActivities (it reads the users).
 */
export async function insertAuditLog(db: Db, workspaceId: string, seed = 0.67): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select setseed(${seed})`.execute(trx);
    await sql`
      insert into audit_log (id, workspace_id, occurred_at, actor_type, actor_id, actor_label, action,
        method, route, resource_type, resource_id, status_code, ip, user_agent, request_id)
      with k as (select id, prefix from api_keys where workspace_id = ${workspaceId} limit 1)
      select gen_random_uuid(), ${workspaceId}, at, actor_type, actor_id, label, action, method, route,
        resource_type, resource_id, status_code, '203.0.113.' || (1 + floor(random() * 200))::int,
        'bench-client/1.0', md5(random()::text)
      from (
        select c.created_at as at, 'api_key' as actor_type, k.id as actor_id, k.prefix as label,
          'case.create' as action, 'POST' as method, '/v1/cases' as route, 'case' as resource_type,
          c.id::text as resource_id, 201 as status_code
        from cases c, k
        where c.workspace_id = ${workspaceId}
        union all
        select c.created_at - interval '1 second', 'api_key', k.id, k.prefix, 'case.create', 'POST', '/v1/cases',
          null, null, case when random() < 0.5 then 400 else 422 end
        from cases c, k
        where c.workspace_id = ${workspaceId} and random() < 0.03
        union all
        select ch.created_at, 'api_key', k.id, k.prefix, 'check.' || ch.type || '.create', 'POST',
          '/v1/checks/' || ch.type, 'check', ch.id::text, 201
        from checks ch, k
        where ch.workspace_id = ${workspaceId}
        union all
        select ch.last_activity_at, 'user', u.id, u.email, 'check.' || ch.type || '.review', 'POST',
          '/v1/checks/' || ch.type || '/:id/review', 'check', ch.id::text, 200
        from (select *, 1 + floor(random() * 12)::int as who from checks
              where workspace_id = ${workspaceId} and status in ('approved', 'rejected') and random() < 0.25) ch
          join (select id, email, row_number() over (order by email) as n from users
                where workspace_id = ${workspaceId}) u on u.n = ch.who
        union all
        select d + interval '8 hours' + random() * interval '2 hours', 'user', u.id, u.email, 'console.login',
          'POST', '/console/login', 'user', u.id::text, 200
        from users u, generate_series(now() - interval '730 days', now(), interval '1 day') d
        where u.workspace_id = ${workspaceId} and random() < 0.7
      ) a
      order by at
    `.execute(trx);
  });
}

/**
 * A fresh database: recreated, migrated with the project's migrations, one large workspace of `n`
 * cases and a small one of 300, each case with one main company and one individual (insertMembers)
 * and a check on each of them (insertChecks), and the webhook deliveries of its creation
 * (insertDeliveries), then VACUUM ANALYZE (what autovacuum leaves behind: statistics and
 * the visibility map that index-only counts need).
 */
export async function seedCasesDatabase(
  databaseUrl: string,
  n: number,
  opts: { recreate?: boolean; log?: (line: string) => void } = {},
): Promise<SeededCases> {
  const log = opts.log ?? (() => {});
  if (opts.recreate !== false) await recreateDatabase(databaseUrl);
  const db = openDb(databaseUrl);
  try {
    await migrateToLatest(db as never);
    const main = await createWorkspace(db, 'list-bench-main');
    const other = await createWorkspace(db, 'list-bench-other');
    const t0 = performance.now();
    await insertCases(db, other.id, 300, 0.5);
    await insertCases(db, main.id, n);
    log(`seeded ${n.toLocaleString('en-US')} cases in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const tm = performance.now();
    await insertMembers(db, other.id, 0.6);
    await insertMembers(db, main.id);
    log(`seeded a company and an individual per case in ${((performance.now() - tm) / 1000).toFixed(1)} s`);
    const tc = performance.now();
    await insertChecks(db, other.id, 0.7);
    await insertChecks(db, main.id);
    log(`seeded two checks per case in ${((performance.now() - tc) / 1000).toFixed(1)} s`);
    const td = performance.now();
    await insertDeliveries(db, other.id, 0.8);
    await insertDeliveries(db, main.id);
    log(`seeded three webhook deliveries per case in ${((performance.now() - td) / 1000).toFixed(1)} s`);
    const ta = performance.now();
    await insertActivities(db, other.id, 0.9);
    await insertActivities(db, main.id);
    await insertAuditLog(db, other.id, 0.95);
    await insertAuditLog(db, main.id);
    log(
      `seeded the events and the audit log of every case in ${((performance.now() - ta) / 1000).toFixed(1)} s`,
    );
    const t1 = performance.now();
    await sql`vacuum analyze cases, companies, individuals, checks, webhook_deliveries, events, audit_log, users`.execute(
      db,
    );
    log(`vacuum analyze in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    return { workspaceId: main.id, apiKey: main.api_key, otherWorkspaceId: other.id, cases: n };
  } finally {
    await db.destroy();
  }
}

/**
 * The two workspaces of a database seedCasesDatabase filled with `n` cases and everything else
 * (members, checks, deliveries, events, audit log), or undefined when it holds anything less (an
 * older seed, another size, no database): what `--reuse` and BENCH_LIST_1M_REUSE keep.
 */
export async function findSeeded(
  databaseUrl: string,
  n: number,
): Promise<{ workspaceId: string; otherWorkspaceId: string } | undefined> {
  const db = openDb(databaseUrl);
  try {
    const { rows } = await sql<{ main: string; other: string; complete: boolean }>`
      select m.id as main, o.id as other,
        (select count(*) from cases where workspace_id = m.id) = ${n}
          and (select count(*) from companies where workspace_id = m.id) = ${n}
          and (select count(*) from checks where workspace_id = m.id) = 2 * ${n}
          and (select count(*) from webhook_deliveries where workspace_id = m.id) = 3 * ${n}
          and exists (select from audit_log where workspace_id = m.id) as complete
      from workspaces m, workspaces o where m.name = 'list-bench-main' and o.name = 'list-bench-other'`
      .execute(db)
      .catch(() => ({ rows: [] as { main: string; other: string; complete: boolean }[] }));
    const r = rows[0];
    return r?.complete ? { workspaceId: r.main, otherWorkspaceId: r.other } : undefined;
  } finally {
    await db.destroy();
  }
}

/** The list endpoints the seed fills: GET /v1/<list>. */
export const LISTS = [
  'cases',
  'companies',
  'individuals',
  'checks',
  'webhook-logs',
  'activities',
  'audit-log',
  'review-queue/checks',
  'review-queue/cases',
] as const;
export type ListName = (typeof LISTS)[number];

/** The table each list reads. */
export const LIST_TABLES: Record<ListName, string> = {
  cases: 'cases',
  companies: 'companies',
  individuals: 'individuals',
  checks: 'checks',
  'webhook-logs': 'webhook_deliveries',
  activities: 'events',
  'audit-log': 'audit_log',
  'review-queue/checks': 'checks',
  'review-queue/cases': 'cases',
};

/** The last migration that indexed each list for its filters and sorts (what `--before` undoes). */
export const LIST_INDEX_MIGRATIONS: Record<ListName, string> = {
  cases: '0027_case_list_indexes',
  companies: '0030_member_filter_indexes',
  individuals: '0030_member_filter_indexes',
  checks: '0031_check_list_indexes',
  'webhook-logs': '0032_webhook_log_indexes',
  activities: '0033_activity_audit_indexes',
  'audit-log': '0033_activity_audit_indexes',
  'review-queue/checks': '0033_activity_audit_indexes',
  'review-queue/cases': '0033_activity_audit_indexes',
};

/** One list request: its endpoint, its label and its query string parameters. */
export interface ListCombination {
  list: ListName;
  label: string;
  filter: string;
  sort: string;
  query: Record<string, string>;
}

const isoDay = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

/** Each filter crossed with the default sort and each sortable field ascending and descending. */
function cross(
  list: ListName,
  filters: [string, Record<string, string>][],
  fields: string[],
): ListCombination[] {
  const sorts: [string, Record<string, string>][] = [['default', {}]];
  for (const field of fields)
    sorts.push([field, { sort: field }], [`${field}.desc`, { sort: `${field}.desc` }]);
  const out: ListCombination[] = [];
  for (const [filter, fq] of filters) {
    for (const [sort, sq] of sorts) {
      out.push({ list, label: `${filter} · ${sort}`, filter, sort, query: { ...fq, ...sq } });
    }
  }
  return out;
}

/** The date filters every list has: a quarter, a month, and "since yesterday" (an integration polling). */
const dateFilters = (): [string, Record<string, string>][] => [
  ['created_at.gte=90 days ago', { 'created_at.gte': isoDay(90) }],
  ['updated_at.gte=30 days ago', { 'updated_at.gte': isoDay(30) }],
  ['updated_at.gte=yesterday', { 'updated_at.gte': isoDay(1) }],
  ['last_activity_at.gte=30 days ago', { 'last_activity_at.gte': isoDay(30) }],
];

/**
 * Every filter of a list (src/<list>/list-<list>.ts), once each with a representative value taken
 * from the seeded data (a pattern twice: one that many rows match, one naming a single row), plus no
 * filter; crossed with every sort (each field ascending and descending, and the default).
 */
export async function listCombinations(db: Db, workspaceId: string, list: ListName = 'cases') {
  if (list === 'companies') return companyCombinations(db, workspaceId);
  if (list === 'individuals') return individualCombinations(db, workspaceId);
  if (list === 'checks') return checkCombinations(db, workspaceId);
  if (list === 'webhook-logs') return webhookLogCombinations(db, workspaceId);
  if (list === 'activities') return activityCombinations(db, workspaceId);
  if (list === 'audit-log') return auditLogCombinations(db, workspaceId);
  if (list === 'review-queue/checks') return queueCheckCombinations(db, workspaceId);
  if (list === 'review-queue/cases') return queueCaseCombinations(db, workspaceId);
  return caseCombinations(db, workspaceId);
}

async function caseCombinations(db: Db, workspaceId: string): Promise<ListCombination[]> {
  const pick = await sql<{ external_id: string; name: string; assignee_id: string }>`
    select
      (select external_id from cases where workspace_id = ${workspaceId} and external_id is not null
         and deleted_at is null order by external_id offset 1234 limit 1) as external_id,
      (select name from cases where workspace_id = ${workspaceId} and deleted_at is null
         order by created_at offset 4321 limit 1) as name,
      (select assignee_id from cases where workspace_id = ${workspaceId} and assignee_id is not null
         and deleted_at is null order by created_at limit 1) as assignee_id
  `.execute(db);
  const v = pick.rows[0];
  return cross(
    'cases',
    [
      ['none', {}],
      [`external_id=${v.external_id}`, { external_id: v.external_id }],
      [`assignee_id=${v.assignee_id}`, { assignee_id: v.assignee_id }],
      ['name=<existing name>', { name: v.name }],
      ['name.ilike=%wonka%', { 'name.ilike': '%wonka%' }],
      // a search for one company: a pattern that matches a handful of cases
      ['name.ilike=%<existing name>%', { 'name.ilike': `%${v.name.toLowerCase()}%` }],
      ['tags=vip', { tags: 'vip' }],
      ['status=open', { status: 'open' }],
      ...dateFilters(),
    ],
    ['created_at', 'last_activity_at', 'name'],
  );
}

/** A member of a live case, a few thousand rows into the workspace's creation order: a typical one. */
async function pickMember<T>(db: Db, workspaceId: string, table: 'companies' | 'individuals'): Promise<T> {
  const { rows } = await sql<T>`
    select m.* from ${sql.table(table)} m join cases c on c.id = m.case_id and c.deleted_at is null
    where m.workspace_id = ${workspaceId} order by m.created_at offset 4321 limit 1
  `.execute(db);
  return rows[0];
}

async function companyCombinations(db: Db, workspaceId: string): Promise<ListCombination[]> {
  const v = await pickMember<{ name: string; registration_number: string; case_id: string }>(
    db,
    workspaceId,
    'companies',
  );
  return cross(
    'companies',
    [
      ['none', {}],
      ['name=<existing name>', { name: v.name }],
      ['name.ilike=%wonka%', { 'name.ilike': '%wonka%' }],
      ['name.ilike=%<existing name>%', { 'name.ilike': `%${v.name.toLowerCase()}%` }],
      ['registration_number=<existing>', { registration_number: v.registration_number }],
      // a registration number typed from its first digits
      [
        'registration_number.like=<first 5 digits>%',
        { 'registration_number.like': `${v.registration_number.slice(0, 5)}%` },
      ],
      ['country=LU', { country: 'LU' }],
      ['case_id=<a case>', { case_id: v.case_id }],
      ...dateFilters(),
    ],
    ['created_at', 'last_activity_at', 'name'],
  );
}

async function individualCombinations(db: Db, workspaceId: string): Promise<ListCombination[]> {
  const v = await pickMember<{ last_name: string; email: string; case_id: string }>(
    db,
    workspaceId,
    'individuals',
  );
  return cross(
    'individuals',
    [
      ['none', {}],
      ['first_name=Hugo', { first_name: 'Hugo' }],
      ['last_name=<existing>', { last_name: v.last_name }],
      ['last_name.ilike=%mar%', { 'last_name.ilike': '%mar%' }],
      ['email=<existing>', { email: v.email }],
      ['email.ilike=%<existing>%', { 'email.ilike': `%${v.email.split('@')[0]}%` }],
      ['birth_date=1980-05-17', { birth_date: '1980-05-17' }],
      ['birth_date.gte=2000-01-01', { 'birth_date.gte': '2000-01-01' }],
      ['case_id=<a case>', { case_id: v.case_id }],
      ...dateFilters(),
    ],
    ['created_at', 'last_activity_at', 'last_name', 'first_name'],
  );
}

async function checkCombinations(db: Db, workspaceId: string): Promise<ListCombination[]> {
  const pick = await sql<{ case_id: string; company_id: string; individual_id: string }>`
    select k.case_id, co.id as company_id, i.id as individual_id
    from checks k join cases c on c.id = k.case_id and c.deleted_at is null
      join companies co on co.case_id = k.case_id join individuals i on i.case_id = k.case_id
    where k.workspace_id = ${workspaceId} order by k.created_at offset 4321 limit 1
  `.execute(db);
  const v = pick.rows[0];
  return cross(
    'checks',
    [
      ['none', {}],
      ['case_id=<a case>', { case_id: v.case_id }],
      ['company_id=<a company>', { company_id: v.company_id }],
      ['individual_id=<an individual>', { individual_id: v.individual_id }],
      // the review queue's question, and a rare status
      ['status=need_review', { status: 'need_review' }],
      ['status=processing', { status: 'processing' }],
      ['type=ekyc', { type: 'ekyc' }],
      ['type=document&status=in_progress', { type: 'document', status: 'in_progress' }],
      ...dateFilters(),
    ],
    ['created_at', 'updated_at', 'last_activity_at'],
  );
}

async function webhookLogCombinations(db: Db, workspaceId: string): Promise<ListCombination[]> {
  const { rows } = await sql<{
    case_id: string;
    company_id: string;
    individual_id: string;
    event_id: string;
    webhook_id: string;
  }>`
    select d.case_id, d.webhook_id, d.event_id,
      (select id from companies where case_id = d.case_id limit 1) as company_id,
      (select id from individuals where case_id = d.case_id limit 1) as individual_id
    from webhook_deliveries d where d.workspace_id = ${workspaceId} and d.event = 'Case.Created'
    order by d.event_created_at offset 4321 limit 1
  `.execute(db);
  const v = rows[0];
  // the list has one sort, created_at (newest first by default)
  const out = cross(
    'webhook-logs',
    [
      ['none', {}],
      // a case's deliveries: what the console's case page and a support engineer ask
      ['case_id=<a case>', { case_id: v.case_id }],
      ['company_id=<a company>', { company_id: v.company_id }],
      ['individual_id=<an individual>', { individual_id: v.individual_id }],
      ['event_id=<an event>', { event_id: v.event_id }],
      ['webhook_id=<the webhook>', { webhook_id: v.webhook_id }],
      ['status=failed', { status: 'failed' }],
      ['event=Company.Created', { event: 'Company.Created' }],
      ['created_at.gte=yesterday', { 'created_at.gte': isoDay(1) }],
    ],
    ['created_at'],
  );
  return out;
}

/** A check of a live case, a few thousand rows into the workspace's creation order, and its members. */
async function pickCheck(db: Db, workspaceId: string, where = sql`true`, offset = 4321) {
  const { rows } = await sql<{ id: string; case_id: string; company_id: string; individual_id: string }>`
    select k.id, k.case_id, co.id as company_id, i.id as individual_id
    from checks k join cases c on c.id = k.case_id and c.deleted_at is null
      join companies co on co.case_id = k.case_id join individuals i on i.case_id = k.case_id
    where k.workspace_id = ${workspaceId} and ${where} order by k.created_at offset ${offset} limit 1
  `.execute(db);
  return rows[0];
}

/** A reviewer: the user with the most activities (about one in twelve of the users' ones). */
async function pickUser(db: Db, workspaceId: string): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    select id from users where workspace_id = ${workspaceId} order by email offset 4 limit 1`.execute(db);
  return rows[0].id;
}

async function activityCombinations(db: Db, workspaceId: string): Promise<ListCombination[]> {
  const v = await pickCheck(db, workspaceId);
  const user = await pickUser(db, workspaceId);
  return cross(
    'activities',
    [
      ['none', {}],
      // a case's history: what the console's case page shows
      ['case_id=<a case>', { case_id: v.case_id }],
      ['company_id=<a company>', { company_id: v.company_id }],
      ['individual_id=<an individual>', { individual_id: v.individual_id }],
      ['author_id=<a reviewer>', { author_id: user }],
      ['type=api__created__case', { type: 'api__created__case' }],
      ['type=user__rejected__check', { type: 'user__rejected__check' }],
      ['created_at.gte=90 days ago', { 'created_at.gte': isoDay(90) }],
      ['created_at.gte=yesterday', { 'created_at.gte': isoDay(1) }],
    ],
    ['created_at'],
  );
}

async function auditLogCombinations(db: Db, workspaceId: string): Promise<ListCombination[]> {
  const v = await pickCheck(db, workspaceId);
  const user = await pickUser(db, workspaceId);
  return cross(
    'audit-log',
    [
      ['none', {}],
      ['actor_type=user', { actor_type: 'user' }],
      ['actor_id=<a reviewer>', { actor_id: user }],
      // who touched this case, this check: what an auditor asks
      ['resource_id=<a case>', { resource_id: v.case_id }],
      ['resource_id=<a check>', { resource_id: v.id }],
      ['resource_type=check', { resource_type: 'check' }],
      ['action=console.login', { action: 'console.login' }],
      ['action.like=check.aml.%', { 'action.like': 'check.aml.%' }],
      ['status_code=422', { status_code: '422' }],
      ['occurred_at.gte=90 days ago', { 'occurred_at.gte': isoDay(90) }],
      ['occurred_at.gte=yesterday', { 'occurred_at.gte': isoDay(1) }],
    ],
    ['occurred_at'],
  );
}

async function queueCheckCombinations(db: Db, workspaceId: string): Promise<ListCombination[]> {
  // one waiting check in twenty: the queue's 432nd
  const v = await pickCheck(db, workspaceId, sql`k.status = 'need_review'`, 432);
  const { rows } = await sql<{ assignee_id: string }>`
    select assignee_id from cases where id = ${v.case_id}`.execute(db);
  return cross(
    'review-queue/checks',
    [
      ['none', {}],
      ['type=ekyc', { type: 'ekyc' }],
      ['case_id=<a case>', { case_id: v.case_id }],
      // a reviewer's own queue
      ['assignee_id=<an assignee>', { assignee_id: rows[0].assignee_id ?? 'usr_07' }],
      ['tags=vip', { tags: 'vip' }],
      ['case_status=open', { case_status: 'open' }],
      ['created_at.gte=90 days ago', { 'created_at.gte': isoDay(90) }],
      ['updated_at.gte=30 days ago', { 'updated_at.gte': isoDay(30) }],
      ['waiting_since.gte=30 days ago', { 'waiting_since.gte': isoDay(30) }],
    ],
    ['waiting_since', 'updated_at', 'created_at'],
  );
}

async function queueCaseCombinations(db: Db, workspaceId: string): Promise<ListCombination[]> {
  const { rows } = await sql<{ assignee_id: string }>`
    select assignee_id from cases where workspace_id = ${workspaceId} and reviewer_has_actions
      and assignee_id is not null and deleted_at is null order by created_at offset 432 limit 1`.execute(db);
  return cross(
    'review-queue/cases',
    [
      ['none', {}],
      ['status=open', { status: 'open' }],
      ['assignee_id=<an assignee>', { assignee_id: rows[0].assignee_id }],
      ['tags=vip', { tags: 'vip' }],
      ['last_activity_at.gte=30 days ago', { 'last_activity_at.gte': isoDay(30) }],
    ],
    ['last_activity_at', 'created_at'],
  );
}
