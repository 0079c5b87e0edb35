/**
 * Case graphs for the drills: a template whose checks run as jobs, request bodies with companies,
 * individuals and nested relations whose shape is known in advance, and the audit that compares
 * what the database holds with what each creation promised (through the API and through SQL).
 */
import { createHash } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { HttpClient } from './_lib.ts';

/**
 * online_reputation on the main company and aml on every individual: both are created
 * `processing` and finished by a job, so a check still `processing` after the drill is a lost job.
 */
export const DRILL_TEMPLATE = {
  key: 'drill-kyb',
  name: 'Drill KYB',
  checks: [
    { type: 'online_reputation', targets: ['main_company'] },
    { type: 'aml', targets: ['individuals'] },
  ],
};

export interface Shape {
  companies: number;
  individuals: number;
  relations: number;
  checks: number;
}

export async function createDrillTemplate(api: HttpClient): Promise<void> {
  const res = await api.post('/v1/templates', DRILL_TEMPLATE);
  if (res.status !== 201) throw new Error(`POST /v1/templates: ${res.status} ${JSON.stringify(res.body)}`);
}

/**
 * A case body: a main company, 1-2 affiliated companies (shareholder of the main one), 2-3
 * individuals (legal representative, shareholder of a holding, signatory), with the shape it must
 * have once created. `n` varies the sizes so that a truncated graph cannot look like a smaller one.
 */
export function caseGraph(externalId: string, n: number): { body: Record<string, unknown>; shape: Shape } {
  const affiliated = 1 + (n % 2);
  const people = 2 + (n % 2 === 0 ? 1 : 0);
  const companies: Record<string, unknown>[] = [
    {
      ref: 'main',
      type: 'main',
      name: `Drill ${externalId} SAS`,
      country: 'FR',
      registration_number: '552100554',
    },
  ];
  for (let a = 0; a < affiliated; a++) {
    companies.push({
      ref: `holding-${a}`,
      type: 'affiliated',
      name: `Holding ${a} of ${externalId}`,
      country: 'DE',
      relations: [{ roles: ['shareholder'], ownership_percentage: 30 + a }],
    });
  }
  const individuals: Record<string, unknown>[] = [];
  for (let p = 0; p < people; p++) {
    const relations: Record<string, unknown>[] = [
      { roles: [p === 0 ? 'legal_representative' : 'shareholder'] },
    ];
    if (p === 1)
      relations.push({ source_company_ref: 'holding-0', roles: ['shareholder'], ownership_percentage: 60 });
    individuals.push({
      first_name: `Person${p}`,
      last_name: `Drill${n}`,
      birth_date: '1980-01-01',
      address: { country: 'FR' },
      is_business_contact: p === 0,
      is_signatory: p === 2,
      relations,
    });
  }
  const relations = affiliated + people + 1; // one per affiliated company, one per person, one extra
  return {
    body: {
      name: `Drill case ${externalId}`,
      external_id: externalId,
      template_key: DRILL_TEMPLATE.key,
      companies,
      individuals,
    },
    shape: { companies: 1 + affiliated, individuals: people, relations, checks: 1 + people },
  };
}

/** The shape of a detailed case (GET /v1/cases/{id} or the 201 of its creation). */
export function shapeOf(kase: any): Shape {
  const entities = [...(kase.companies ?? []), ...(kase.individuals ?? [])];
  return {
    companies: kase.companies?.length ?? 0,
    individuals: kase.individuals?.length ?? 0,
    relations: entities.reduce((s, e) => s + (e.relations?.length ?? 0), 0),
    checks: entities.reduce((s, e) => s + (e.checks?.length ?? 0), 0),
  };
}

export const sameShape = (a: Shape, b: Shape) =>
  a.companies === b.companies &&
  a.individuals === b.individuals &&
  a.relations === b.relations &&
  a.checks === b.checks;

export const showShape = (s: Shape) => `${s.companies}c/${s.individuals}i/${s.relations}r/${s.checks}k`;

// ---------------------------------------------------------------------------------------------
// SQL, on either database, after the server stopped (PGlite) or beside it (PostgreSQL)

export type Sql = <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;

/**
 * Runs `fn` with a SQL function on the drill's database. For the embedded database the server must
 * be stopped: PGlite belongs to one process.
 */
export async function withSql<T>(
  target: { databaseUrl: string | null; dataDir: string },
  fn: (sql: Sql) => Promise<T>,
): Promise<T> {
  if (target.databaseUrl) {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      return await fn(async (text, params) => (await client.query(text, params as unknown[])).rows);
    } finally {
      await client.end();
    }
  }
  const db = await PGlite.create(`${target.dataDir}/pgdata`);
  try {
    return await fn(async <R>(text: string, params?: unknown[]) => (await db.query<R>(text, params)).rows);
  } finally {
    await db.close();
  }
}

export interface StoredCase {
  id: string;
  external_id: string;
  companies: number;
  individuals: number;
  relations: number;
  checks: number;
  processing: number;
}

/** Every case of a workspace with its entity, relation and check counts, as stored. */
export function storedCases(sql: Sql, workspaceId: string): Promise<StoredCase[]> {
  return sql<StoredCase>(
    `select c.id, c.external_id,
            (select count(*)::int from companies x where x.case_id = c.id) as companies,
            (select count(*)::int from individuals x where x.case_id = c.id) as individuals,
            (select count(*)::int from relations x where x.case_id = c.id) as relations,
            (select count(*)::int from checks x where x.case_id = c.id) as checks,
            (select count(*)::int from checks x where x.case_id = c.id and x.status = 'processing') as processing
       from cases c where c.workspace_id = $1`,
    [workspaceId],
  );
}

// ---------------------------------------------------------------------------------------------
// What a client can read about a case: compared before and after a backup round trip

export interface CaseReadBack {
  status: number[];
  case: unknown;
  documents: unknown;
  notes: unknown;
  /** file id → SHA-256 of the downloaded bytes (or the download status when not 200). */
  files: Record<string, string>;
}

/** GET /v1/cases/{id}, its documents (with history), its notes and every document's bytes. */
export async function readCaseBack(api: HttpClient, id: string): Promise<CaseReadBack> {
  const kase = await api.get(`/v1/cases/${id}`);
  const documents = await api.get(`/v1/cases/${id}/documents?include_check_history=true`);
  const notes = await api.get(`/v1/cases/${id}/notes`);
  const files: Record<string, string> = {};
  for (const doc of documents.body?.data ?? []) {
    for (const fileId of doc.file_ids) {
      const file = await api.get(`/v1/files/${fileId}`);
      files[fileId] =
        file.status === 200
          ? createHash('sha256')
              .update(file.body as Buffer)
              .digest('hex')
          : `status ${file.status}`;
    }
  }
  return {
    status: [kase.status, documents.status, notes.status],
    case: kase.body,
    documents: documents.body,
    notes: notes.body,
    files,
  };
}
