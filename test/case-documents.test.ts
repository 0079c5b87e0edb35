import assert from 'node:assert/strict';
import { test } from 'node:test';
import { downloadFile, makePng, uploadRef } from './helpers/files.ts';
import { type Client, eventually, newWorkspace } from './helpers/harness.ts';
import { passportPng, td3Mrz } from './helpers/id-documents.ts';

async function settled(api: Client, id: string) {
  return eventually(async () => {
    const r = await api.get(`/v1/checks/id_document/${id}`);
    return r.body.status !== 'processing' && r.body;
  });
}

/** A case with a company and two people: Marie has a twice-submitted id_document, Pierre one without files. */
async function caseWithDocuments(api: Client) {
  const res = await api.post('/v1/cases', {
    name: 'Documents case',
    companies: [{ name: 'Main', country: 'FR' }],
    individuals: [
      {
        first_name: 'Marie',
        last_name: 'Curie',
        birth_date: '1967-11-07',
        relations: [{ roles: ['legal_representative'] }],
      },
      { first_name: 'Pierre', last_name: 'Curie', relations: [{ roles: ['shareholder'] }] },
    ],
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const caseId = res.body.id as string;
  const marie = res.body.individuals.find((i: any) => i.first_name === 'Marie').id as string;
  const pierre = res.body.individuals.find((i: any) => i.first_name === 'Pierre').id as string;
  const companyId = res.body.companies[0].id as string;
  const created = await api.post('/v1/checks/id_document', {
    individual_id: marie,
    data: {
      front_upload_ref: await uploadRef(api, passportPng({ outcome: 'rejected' })),
      back_upload_ref: await uploadRef(api, makePng({ width: 3, height: 3 })),
    },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const first = await settled(api, created.body.id);
  assert.equal(first.status, 'rejected');
  const again = await api.post(`/v1/checks/id_document/${first.id}/add_files`, {
    front_upload_ref: await uploadRef(api, passportPng({ mrz: td3Mrz() })),
  });
  assert.equal(again.status, 201);
  const current = await settled(api, first.id);
  assert.equal(current.status, 'approved');
  const empty = await api.post('/v1/checks/id_document', { individual_id: pierre });
  assert.equal(empty.status, 201);
  return { caseId, marie, pierre, companyId, first, current, emptyCheckId: empty.body.id as string };
}

test('GET /cases/{id}/documents lists the files of the case checks (latest attempt by default)', async () => {
  const api = await newWorkspace();
  const { caseId, marie, current } = await caseWithDocuments(api);
  const res = await api.get(`/v1/cases/${caseId}/documents`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.length, 1, 'a check without files lists nothing');
  const [doc] = res.body.data;
  assert.deepEqual(doc, {
    individual_id: marie,
    name: 'ID document (passport)',
    type: 'check__id_document',
    check: { id: current.id, subtype: null, type: 'id_document', version: 'current' },
    file_ids: [current.data.information.front_file_id],
    updated_at: current.updated_at,
  });
  for (const id of doc.file_ids) assert.equal((await downloadFile(api, id)).status, 200);
});

test('include_check_history adds the files of earlier attempts', async () => {
  const api = await newWorkspace();
  const { caseId, first, current } = await caseWithDocuments(api);
  const res = await api.get(`/v1/cases/${caseId}/documents?include_check_history=true`);
  assert.equal(res.status, 200);
  assert.deepEqual(
    res.body.data.map((d: any) => [d.check.id, d.check.version, d.file_ids]),
    [
      [current.id, 'current', [current.data.information.front_file_id]],
      [first.id, 'history', [first.data.information.front_file_id, first.data.information.back_file_id]],
    ],
  );
  assert.equal(res.body.data[1].name, 'ID document');
  // the earlier attempt's files date from when that attempt ended (its rejection), before the
  // current attempt's: a client taking the latest updated_at gets the current files
  assert.equal(res.body.data[1].updated_at, first.updated_at);
  assert.ok(res.body.data[1].updated_at <= res.body.data[0].updated_at, JSON.stringify(res.body.data));
  const off = await api.get(`/v1/cases/${caseId}/documents?include_check_history=false`);
  assert.equal(off.body.data.length, 1);
});

test('filters: type (comma-separated, validated), individual_id, company_id', async () => {
  const api = await newWorkspace();
  const { caseId, marie, pierre, companyId } = await caseWithDocuments(api);
  const list = async (q: string) => {
    const r = await api.get(`/v1/cases/${caseId}/documents?${q}`);
    assert.equal(r.status, 200, `${q} ${JSON.stringify(r.body)}`);
    return r.body.data as any[];
  };
  assert.equal((await list('type=check__id_document')).length, 1);
  assert.equal((await list('type=case_report,check__id_document')).length, 1);
  assert.equal((await list('type=check__document')).length, 0);
  assert.equal((await list('type=case_report,document_order,check__id_verification')).length, 0);
  assert.equal((await list(`individual_id=${marie}`)).length, 1);
  assert.equal((await list(`individual_id=${pierre}`)).length, 0);
  assert.equal((await list(`company_id=${companyId}`)).length, 0);
  for (const q of ['type=passport', 'type=check__id_document,nope', 'type=', 'individual_id=abc']) {
    const r = await api.get(`/v1/cases/${caseId}/documents?${q}`);
    assert.equal(r.status, 400, q);
    assert.equal(r.body.details[0].path, q.split('=')[0], JSON.stringify(r.body));
  }
  // an empty entry is refused as the list filters refuse `status.in=open,` (it was ignored: 200)
  for (const q of [
    'type=check__id_document,',
    'type=,check__id_document',
    'type=case_report,,document_order',
  ]) {
    const r = await api.get(`/v1/cases/${caseId}/documents?${q}`);
    assert.equal(r.status, 400, q);
    assert.match(r.body.message, /^type has an empty value \(item \d of \d: a comma too many\?\)$/);
    assert.equal(r.body.details[0].path, 'type');
  }
  const listQuery = await api.get('/v1/checks?status.in=open,');
  assert.equal(listQuery.status, 400);
  assert.equal(listQuery.body.message, 'status.in has an empty value (item 2 of 2: a comma too many?)');
});

test('not relevant entities are left out unless include_not_relevant', async () => {
  const api = await newWorkspace();
  const { caseId, marie } = await caseWithDocuments(api);
  const r = await api.post(`/v1/individuals/${marie}/set-relevant`, { is_relevant: false });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal((await api.get(`/v1/cases/${caseId}/documents`)).body.data.length, 0);
  const all = await api.get(`/v1/cases/${caseId}/documents?include_not_relevant=true`);
  assert.equal(all.body.data.length, 1);
  assert.equal(all.body.data[0].individual_id, marie);
});

test('unknown case, another workspace case → 404; a non-uuid id → 400', async () => {
  const api = await newWorkspace();
  const other = await newWorkspace();
  const { caseId } = await caseWithDocuments(api);
  assert.equal((await other.get(`/v1/cases/${caseId}/documents`)).status, 404);
  assert.equal((await api.get('/v1/cases/00000000-0000-4000-8000-000000000000/documents')).status, 404);
  const bad = await api.get('/v1/cases/not-a-uuid/documents');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.details[0].path, 'id');
  const deleted = await api.delete(`/v1/cases/${caseId}`);
  if (deleted.status === 204) assert.equal((await api.get(`/v1/cases/${caseId}/documents`)).status, 404);
});
