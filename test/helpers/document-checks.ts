/**
 * document check fixtures: a case with a company and a person, files that force a sandbox outcome
 * (PNG tEXt chunk, PDF text), and helpers to create a check and wait for its analysis.
 */
import assert from 'node:assert/strict';
import { makePdf, makePng, uploadRef } from './files.ts';
import { type Client, eventually, getHarness } from './harness.ts';

export const ACME = { name: 'Acme Industries SAS', country: 'FR', registration_number: '552100554' };

export async function documentCase(api: Client) {
  const res = await api.post('/v1/cases', {
    name: 'Document case',
    companies: [{ ...ACME, type: 'main' }],
    individuals: [
      {
        first_name: 'Marie',
        last_name: 'Curie',
        birth_date: '1967-11-07',
        relations: [{ roles: ['legal_representative'] }],
      },
    ],
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return {
    caseId: res.body.id as string,
    companyId: res.body.companies[0].id as string,
    individualId: res.body.individuals[0].id as string,
  };
}

/** A small PNG whose `sandbox_outcome` tEXt chunk forces the outcome. */
export const outcomePng = (outcome: string) =>
  makePng({ width: 6, height: 4, text: { sandbox_outcome: outcome } });

/** A one-page PDF whose text layer says `sandbox_outcome: <outcome>`. */
export const outcomePdf = (outcome: string) =>
  makePdf({ text: ['Registration certificate', `sandbox_outcome: ${outcome}`] });

export async function refs(api: Client, files: Buffer[]) {
  const out: { upload_ref: string }[] = [];
  for (const f of files) out.push({ upload_ref: await uploadRef(api, f) });
  return out;
}

/** Waits until the check left `processing`; returns it as the API shows it. */
export async function settledDocument(api: Client, id: string) {
  return eventually(async () => {
    const r = await api.get(`/v1/checks/document/${id}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.status !== 'processing' && r.body;
  }, 60_000);
}

/** Creates a company document check with these files; returns the created and the settled check. */
export async function submitDocument(
  api: Client,
  files: Buffer[],
  settings: Record<string, unknown> = {},
  target?: { company_id: string } | { individual_id: string },
) {
  const ids = target ? null : await documentCase(api);
  const res = await api.post('/v1/checks/document', {
    ...(target ?? { company_id: ids?.companyId }),
    settings: { document_type_key: 'registration_certificate', ...settings },
    data: { files: await refs(api, files) },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.status, 'processing');
  return { created: res.body, ...ids, done: await settledDocument(api, res.body.id) };
}

export async function checkEventTypes(workspaceId: string) {
  const { ctx } = await getHarness();
  const rows = await ctx.db
    .selectFrom('events')
    .select(['type'])
    .where('workspace_id', '=', workspaceId)
    .where('type', 'like', 'Check.%')
    .orderBy('seq')
    .execute();
  return rows.map((r) => r.type);
}
