import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { processCheckJob } from '../src/checks/engine/process-job.ts';
import { checkTypeDefinition } from '../src/checks/registry.ts';
import {
  checkEventTypes,
  documentCase,
  outcomePdf,
  outcomePng,
  refs,
  settledDocument,
  submitDocument,
} from './helpers/document-checks.ts';
import { downloadFile } from './helpers/files.ts';
import { getHarness, newWorkspace } from './helpers/harness.ts';

describe('document check: sandbox outcomes', () => {
  test('PNG approved → approved by the system; envelope, settings, files and events', async () => {
    const api = await newWorkspace();
    const { created, done, caseId } = await submitDocument(api, [outcomePng('approved')]);
    assert.equal(created.type, 'document');
    assert.equal(created.subtype, 'document_type:registration_certificate');
    assert.equal(created.document_type_key, 'registration_certificate');
    assert.equal(created.is_internal, false);
    assert.equal(created.data.settings.document_type_key, 'registration_certificate');
    assert.equal(created.data.settings.document_type.key, 'registration_certificate');
    assert.deepEqual(created.data.settings.document_analysis, {
      automatic_approval: true,
      automatic_rejection: false,
      parameters: null,
    });
    assert.equal(created.data.document_file_ids.length, 1);
    assert.equal(created.data.result, null);
    assert.equal(done.status, 'approved');
    assert.equal(done.data.result, 'approved');
    assert.equal(done.data.review.reviewer_type, 'system');
    assert.ok(done.data.review.reviewed_at);
    assert.match(done.data.review.comment, /automatic_approval/);
    assert.deepEqual(done.data.document_file_ids, created.data.document_file_ids);
    const file = await downloadFile(api, done.data.document_file_ids[0]);
    assert.equal(file.status, 200);
    assert.deepEqual(await checkEventTypes(api.workspaceId), ['Check.Started', 'Check.Approved']);
    const c = (await api.get(`/v1/cases/${caseId}`)).body;
    const env = c.companies[0].checks.find((k: any) => k.id === done.id);
    assert.equal(env.status, 'approved');
    assert.equal(env.document_type_key, 'registration_certificate');
  });

  test('PNG rejected: rejected with automatic_rejection, else need_review with the reason', async () => {
    const api = await newWorkspace();
    const auto = await submitDocument(api, [outcomePng('rejected')], { automatic_rejection: true });
    assert.equal(auto.done.status, 'rejected');
    assert.equal(auto.done.data.result, 'rejected');
    assert.equal(auto.done.data.review.reviewer_type, 'system');
    assert.match(auto.done.data.review.comment, /Rejected automatically \(automatic_rejection\)/);
    const manual = await submitDocument(api, [outcomePng('rejected')]);
    assert.equal(manual.done.status, 'need_review');
    assert.equal(manual.done.data.result, null);
    assert.equal(manual.done.data.review.reviewer_type, null);
    // the frame every type uses for a check waiting for a person (README, docs walk)
    assert.equal(
      manual.done.data.review.comment,
      'Needs a review (automatic_rejection is off): The document was rejected (sandbox_outcome rejected)',
    );
    const events = await checkEventTypes(api.workspaceId);
    assert.ok(events.includes('Check.Rejected'));
    assert.ok(events.includes('Check.ReviewNeeded'));
  });

  test('PNG undecided → need_review; error → need_review with result error; approved without automatic_approval → need_review', async () => {
    const api = await newWorkspace();
    const undecided = await submitDocument(api, [outcomePng('undecided')]);
    assert.equal(undecided.done.status, 'need_review');
    assert.equal(undecided.done.data.result, null);
    assert.equal(
      undecided.done.data.review.comment,
      'Needs a review: The document could not be decided (sandbox_outcome undecided)',
    );
    const error = await submitDocument(api, [outcomePng('error')], { automatic_rejection: true });
    assert.equal(error.done.status, 'need_review');
    assert.equal(error.done.data.result, 'error');
    assert.equal(
      error.done.data.review.comment,
      'Needs a review: The document analysis failed (sandbox_outcome error)',
    );
    const off = await submitDocument(api, [outcomePng('approved')], {
      document_analysis: { automatic_approval: false },
    });
    assert.equal(off.done.status, 'need_review');
    assert.equal(off.done.data.settings.document_analysis.automatic_approval, false);
    assert.equal(
      off.done.data.review.comment,
      'Needs a review (automatic_approval is off): the document was approved (sandbox_outcome approved)',
    );
  });

  test('a sandbox approval says so in the review comment: no analysis ran, no criterion passed', async () => {
    const api = await newWorkspace();
    const { done } = await submitDocument(api, [outcomePng('approved')]);
    assert.equal(done.status, 'approved');
    assert.equal(done.data.detailed_results.document_analysis, null);
    assert.equal(
      done.data.review.comment,
      'Approved automatically (automatic_approval): the document was approved (sandbox_outcome approved)',
    );
    assert.doesNotMatch(done.data.review.comment, /criterion/);
  });

  test('a PDF whose text says sandbox_outcome decides the same way', async () => {
    const api = await newWorkspace();
    const rejected = await submitDocument(api, [outcomePdf('rejected')], { automatic_rejection: true });
    assert.equal(rejected.done.status, 'rejected');
    const approved = await submitDocument(api, [outcomePdf('approved')]);
    assert.equal(approved.done.status, 'approved');
    const undecided = await submitDocument(api, [outcomePdf('undecided')]);
    assert.equal(undecided.done.status, 'need_review');
  });

  test('workspace settings give the automatic rules; the request wins', async () => {
    const api = await newWorkspace();
    const patched = await api.patch('/v1/workspace/settings', {
      checks: { document: { automatic_rejection: true } },
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const ws = await submitDocument(api, [outcomePng('rejected')]);
    assert.equal(ws.done.status, 'rejected');
    const req = await submitDocument(api, [outcomePng('rejected')], { automatic_rejection: false });
    assert.equal(req.done.status, 'need_review');
  });
});

describe('document check: files', () => {
  test('without files it waits in_progress; add_files starts the analysis (one Check.Started)', async () => {
    const api = await newWorkspace();
    const { individualId } = await documentCase(api);
    const res = await api.post('/v1/checks/document', {
      individual_id: individualId,
      settings: { document_type_key: 'proof_of_address' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.status, 'in_progress');
    assert.equal(res.body.individual_id, individualId);
    assert.deepEqual(res.body.data.document_file_ids, []);
    const empty = await api.post('/v1/checks/document', {
      individual_id: individualId,
      settings: { document_type_key: 'proof_of_address' },
      data: { files: [] },
    });
    assert.equal(empty.body.status, 'in_progress');
    const added = await api.post(`/v1/checks/document/${res.body.id}/add_files`, {
      files: await refs(api, [outcomePng('approved'), outcomePng('approved')]),
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.equal(added.body.status, 'processing');
    assert.equal(added.body.data.document_file_ids.length, 2);
    const done = await settledDocument(api, res.body.id);
    assert.equal(done.status, 'approved');
    assert.deepEqual(
      (await checkEventTypes(api.workspaceId)).filter((e) => e === 'Check.Started').length,
      2, // one per check created
    );
  });

  test('at most 10 files: on create, on add_files and in total; bad upload_ref names its field', async () => {
    const api = await newWorkspace();
    const { companyId } = await documentCase(api);
    const eleven = await refs(
      api,
      Array.from({ length: 11 }, () => outcomePng('undecided')),
    );
    const tooMany = await api.post('/v1/checks/document', {
      company_id: companyId,
      settings: { document_type_key: 'registration_certificate' },
      data: { files: eleven },
    });
    assert.equal(tooMany.status, 400);
    const ten = await api.post('/v1/checks/document', {
      company_id: companyId,
      settings: { document_type_key: 'registration_certificate' },
      data: { files: eleven.slice(0, 10) },
    });
    assert.equal(ten.status, 201, JSON.stringify(ten.body));
    assert.equal(ten.body.data.document_file_ids.length, 10);
    const sixRefs = await refs(
      api,
      Array.from({ length: 6 }, () => outcomePng('undecided')),
    );
    const six = await api.post('/v1/checks/document', {
      company_id: companyId,
      settings: { document_type_key: 'registration_certificate' },
      data: { files: sixRefs },
    });
    const waiting = await settledDocument(api, six.body.id);
    assert.equal(waiting.status, 'need_review');
    const five = await refs(
      api,
      Array.from({ length: 5 }, () => outcomePng('approved')),
    );
    const over = await api.post(`/v1/checks/document/${six.body.id}/add_files`, { files: five });
    assert.equal(over.status, 400);
    assert.equal(over.body.details[0].path, 'files');
    assert.match(over.body.message, /at most 10/);
    assert.equal((await api.post(`/v1/checks/document/${six.body.id}/add_files`, { files: [] })).status, 400);
    assert.equal(
      (await api.post(`/v1/checks/document/${six.body.id}/add_files`, { files: eleven })).status,
      400,
    );
    const unchanged = (await api.get(`/v1/checks/document/${six.body.id}`)).body;
    assert.equal(unchanged.status, 'need_review');
    assert.equal(unchanged.data.document_file_ids.length, 6);
    // need_review: the files join the attempt, which is analysed again; files the attempt already
    // holds, sent again with them, are not counted twice (6 held + 2 of them + 4 new = 10 files)
    const four = await api.post(`/v1/checks/document/${six.body.id}/add_files`, {
      files: [...sixRefs.slice(0, 2), ...five.slice(0, 4)],
    });
    assert.equal(four.status, 201, JSON.stringify(four.body));
    assert.equal(four.body.status, 'processing');
    assert.equal(four.body.data.document_file_ids.length, 10);
    const unknownRef = await api.post('/v1/checks/document', {
      company_id: companyId,
      settings: { document_type_key: 'registration_certificate' },
      data: { files: [eleven[0], { upload_ref: 'nope' }] },
    });
    assert.equal(unknownRef.status, 400);
    assert.equal(unknownRef.body.details[0].path, 'data.files[1].upload_ref');
  });

  test('processing or approved → add_files 400; rejected → a new attempt, the old one in the case documents history', async () => {
    const api = await newWorkspace();
    const { done, caseId, companyId } = await submitDocument(api, [outcomePng('rejected')], {
      automatic_rejection: true,
    });
    assert.equal(done.status, 'rejected');
    const retry = await api.post(`/v1/checks/document/${done.id}/add_files`, {
      files: await refs(api, [outcomePng('pending')]),
    });
    assert.equal(retry.status, 201, JSON.stringify(retry.body));
    assert.equal(retry.body.status, 'processing');
    assert.equal(retry.body.data.document_file_ids.length, 1);
    assert.notEqual(retry.body.data.document_file_ids[0], done.data.document_file_ids[0]);
    const busy = await api.post(`/v1/checks/document/${done.id}/add_files`, {
      files: await refs(api, [outcomePng('approved')]),
    });
    assert.equal(busy.status, 400);
    assert.equal(busy.body.details[0].path, 'status', JSON.stringify(busy.body));
    assert.match(busy.body.details[0].message, /this one is processing/);
    const docs = (await api.get(`/v1/cases/${caseId}/documents?type=check__document`)).body.data;
    assert.equal(docs.length, 1);
    assert.deepEqual(docs[0].check, {
      id: done.id,
      subtype: 'document_type:registration_certificate',
      document_type_key: 'registration_certificate',
      type: 'document',
      version: 'current',
    });
    assert.equal(docs[0].type, 'check__document');
    assert.equal(docs[0].name, 'Registration certificate');
    assert.equal(docs[0].company_id, companyId);
    assert.deepEqual(docs[0].file_ids, retry.body.data.document_file_ids);
    const all = (await api.get(`/v1/cases/${caseId}/documents?include_check_history=true`)).body.data;
    const mine = all.filter((d: any) => d.check?.id === done.id);
    assert.deepEqual(
      mine.map((d: any) => d.check.version),
      ['current', 'history'],
    );
    assert.deepEqual(mine[1].file_ids, done.data.document_file_ids);
    const events = await checkEventTypes(api.workspaceId);
    assert.deepEqual(events, ['Check.Started', 'Check.Rejected', 'Check.Started']);
  });
});

describe('document check: case flags', () => {
  test('waiting for its files → for_first_collect; rejected → for_recollection', async () => {
    const api = await newWorkspace();
    const { caseId, companyId } = await documentCase(api);
    const flags = async () => ((await api.get(`/v1/cases/${caseId}`)).body.flags as string[]).slice().sort();
    const waiting = await api.post('/v1/checks/document', {
      company_id: companyId,
      settings: { document_type_key: 'articles_of_association', automatic_rejection: true },
    });
    assert.deepEqual(await flags(), ['for_first_collect']);
    await api.post(`/v1/checks/document/${waiting.body.id}/add_files`, {
      files: await refs(api, [outcomePng('rejected')]),
    });
    assert.equal((await settledDocument(api, waiting.body.id)).status, 'rejected');
    assert.ok((await flags()).includes('for_recollection'));
    assert.ok(!(await flags()).includes('for_first_collect'));
  });
});

describe('document check: document types and targets', () => {
  test('unknown, archived or wrong-target type → 400 naming settings.document_type_key; custom types work', async () => {
    const api = await newWorkspace();
    const { companyId, individualId } = await documentCase(api);
    const create = (body: Record<string, unknown>) => api.post('/v1/checks/document', body);
    const unknown = await create({ company_id: companyId, settings: { document_type_key: 'nope' } });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.details[0].path, 'settings.document_type_key');
    assert.match(unknown.body.message, /nope/);
    const wrong = await create({
      individual_id: individualId,
      settings: { document_type_key: 'registration_certificate' },
    });
    assert.equal(wrong.status, 400);
    assert.match(wrong.body.message, /registration_certificate.*company/);
    const custom = (
      await api.post('/v1/document_types', {
        key: 'lease_contract',
        label: 'Lease contract',
        target_entities: ['individual'],
      })
    ).body;
    const ok = await create({
      individual_id: individualId,
      settings: { document_type_key: 'lease_contract' },
    });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.equal(ok.body.subtype, 'document_type:lease_contract');
    assert.equal(ok.body.is_internal, false);
    await api.post('/v1/document_types', {
      key: 'internal_memo',
      label: 'Internal memo',
      target_entities: ['individual'],
      is_internal: true,
    });
    const internal = await create({
      individual_id: individualId,
      settings: { document_type_key: 'internal_memo' },
    });
    assert.equal(internal.status, 201, JSON.stringify(internal.body));
    assert.equal(internal.body.is_internal, true);
    assert.equal(ok.body.data.settings.document_type.id, custom.id);
    assert.equal((await api.delete(`/v1/document_types/${custom.id}`)).status, 204);
    const archived = await create({
      individual_id: individualId,
      settings: { document_type_key: 'lease_contract' },
    });
    assert.equal(archived.status, 400);
    assert.match(archived.body.message, /archived/);
    // the check made before keeps its type
    assert.equal(
      (await api.get(`/v1/checks/document/${ok.body.id}`)).body.data.settings.document_type.key,
      'lease_contract',
    );
    // another workspace's custom type is unknown here
    const other = await newWorkspace();
    await other.post('/v1/document_types', { key: 'theirs', label: 'Theirs', target_entities: ['company'] });
    const foreign = await create({ company_id: companyId, settings: { document_type_key: 'theirs' } });
    assert.equal(foreign.status, 400);
    // targets: exactly one; settings.document_type_key required; unknown fields refused
    assert.equal(
      (
        await create({
          company_id: companyId,
          individual_id: individualId,
          settings: { document_type_key: 'proof_of_address' },
        })
      ).status,
      400,
    );
    assert.equal((await create({ settings: { document_type_key: 'proof_of_address' } })).status, 400);
    assert.equal((await create({ company_id: companyId, settings: {} })).status, 400);
    assert.equal((await create({ company_id: companyId })).status, 400);
    assert.equal(
      (
        await create({
          company_id: companyId,
          settings: { document_type_key: 'proof_of_address', colour: 1 },
        })
      ).status,
      400,
    );
    // parameters takes null only: the 400 names it, like every other field (it had no details
    // and a message of ajv's paths, the null-only schema being mistaken for a nullable branch)
    const parameters = await create({
      company_id: companyId,
      settings: { document_type_key: 'proof_of_address', document_analysis: { parameters: { x: 1 } } },
    });
    assert.equal(parameters.status, 400);
    assert.deepEqual(parameters.body.details, [
      {
        path: 'settings.document_analysis.parameters',
        message: 'settings.document_analysis.parameters must be null',
      },
    ]);
    assert.equal(parameters.body.message, 'settings.document_analysis.parameters must be null');
    // fraud_analysis, nullable in the reference: off (null, enabled false) is what vericase does
    for (const fraud_analysis of [null, { enabled: false }]) {
      const off = await create({
        company_id: companyId,
        settings: { document_type_key: 'proof_of_address', fraud_analysis },
      });
      assert.equal(off.status, 201, JSON.stringify(off.body));
      assert.equal('fraud_analysis' in off.body.data.settings, false);
    }
    const on = await create({
      company_id: companyId,
      settings: { document_type_key: 'proof_of_address', fraud_analysis: { enabled: true } },
    });
    assert.equal(on.status, 400);
    assert.equal(on.body.details[0].path, 'settings.fraud_analysis.enabled');
  });
});

describe('document check: review, force_review, retrieve, tenants', () => {
  test('force_review pushes a processing check to review; review decides; another workspace gets 404', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const { companyId } = await documentCase(api);
    const created = (
      await api.post('/v1/checks/document', {
        company_id: companyId,
        settings: { document_type_key: 'registration_certificate' },
        data: { files: await refs(api, [outcomePng('pending')]) },
      })
    ).body;
    assert.equal(created.status, 'processing');
    for (const [method, path, body] of [
      ['get', '', undefined],
      ['post', '/force_review', {}],
      ['patch', '/review', { action: 'approve' }],
      ['post', '/add_files', { files: [{ upload_ref: 'x' }] }],
    ] as const) {
      const url = `/v1/checks/document/${created.id}${path}`;
      const res = method === 'get' ? await other.get(url) : await other[method](url, body);
      assert.equal(res.status, 404, `${method} ${path}`);
    }
    // as the reference's clients send it: no body at all
    const { app } = await getHarness();
    const forcedRes = await app.inject({
      method: 'POST',
      url: `/v1/checks/document/${created.id}/force_review`,
      headers: { 'x-service-api-key': api.key },
    });
    const forced = { status: forcedRes.statusCode, body: JSON.parse(forcedRes.body) };
    assert.equal(forced.status, 200, JSON.stringify(forced.body));
    assert.equal(forced.body.status, 'need_review');
    const forcedAgain = await api.post(`/v1/checks/document/${created.id}/force_review`, {});
    assert.equal(forcedAgain.status, 400);
    assert.deepEqual(forcedAgain.body.details, [
      {
        path: 'status',
        message: 'Only a check in processing can be pushed to review; this one is need_review',
      },
    ]);
    const reviewed = await api.patch(`/v1/checks/document/${created.id}/review`, {
      action: 'approve',
      comment: 'Kbis checked by hand',
    });
    assert.equal(reviewed.status, 200, JSON.stringify(reviewed.body));
    assert.equal(reviewed.body.status, 'approved');
    assert.equal(reviewed.body.data.result, 'approved');
    assert.equal(reviewed.body.data.review.reviewer_type, 'api');
    assert.equal(reviewed.body.data.review.comment, 'Kbis checked by hand');
    const again = await api.patch(`/v1/checks/document/${created.id}/review`, { action: 'reject' });
    assert.equal(again.status, 400);
    const got = await api.get(`/v1/checks/document/${created.id}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.status, 'approved');
    assert.deepEqual(await checkEventTypes(api.workspaceId), [
      'Check.Started',
      'Check.ReviewNeeded',
      'Check.Approved',
    ]);
    // an id_document check is not a document check
    const { individualId } = await documentCase(api);
    const idd = (await api.post('/v1/checks/id_document', { individual_id: individualId })).body;
    assert.equal((await api.get(`/v1/checks/document/${idd.id}`)).status, 404);
  });

  test('pushed to review while analysed, then given more files: the first analysis, of the old files, does not decide', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const def = checkTypeDefinition('document');
    assert.ok(def?.process);
    const original = def.process;
    const savedDelay = ctx.config.sandboxDelayMs;
    // the jobs wait an hour: this test runs them itself, in the order it wants
    Object.assign(ctx.config, { sandboxDelayMs: 3_600_000 });
    try {
      const { companyId } = await documentCase(api);
      const created = await api.post('/v1/checks/document', {
        company_id: companyId,
        settings: { document_type_key: 'registration_certificate', automatic_rejection: true },
        data: { files: await refs(api, [outcomePng('rejected')]) },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = created.body.id;
      let added: any;
      // while the first job analyses its one file, the operator pushes the check to review and adds one
      def.process = async (input) => {
        if (input.check.id === id && !added) {
          assert.equal((await api.post(`/v1/checks/document/${id}/force_review`, {})).status, 200);
          added = await api.post(`/v1/checks/document/${id}/add_files`, {
            files: await refs(api, [outcomePng('approved')]),
          });
          assert.equal(added.status, 201, JSON.stringify(added.body));
          assert.equal(added.body.status, 'processing');
        }
        return original.call(def, input);
      };
      await processCheckJob(ctx, { checkId: id, attempt: 1 });
      const after = (await api.get(`/v1/checks/document/${id}`)).body;
      assert.equal(after.status, 'processing', 'the old analysis decided the check');
      // the job add_files queued reads both files and decides
      await processCheckJob(ctx, { checkId: id, attempt: 1 });
      const done = (await api.get(`/v1/checks/document/${id}`)).body;
      assert.equal(done.status, 'rejected');
      assert.equal(done.data.document_file_ids.length, 2);
      assert.deepEqual(done.data.document_file_ids, added.body.data.document_file_ids);
    } finally {
      def.process = original;
      Object.assign(ctx.config, { sandboxDelayMs: savedDelay });
    }
  });

  test('a template may create document checks (document_type_key in its settings)', async () => {
    const api = await newWorkspace();
    const tpl = await api.post('/v1/templates', {
      key: 'kyb-docs',
      name: 'KYB documents',
      checks: [
        {
          type: 'document',
          targets: ['main_company'],
          settings: { document_type_key: 'registration_certificate' },
        },
        {
          type: 'document',
          targets: ['main_company'],
          settings: { document_type_key: 'bank_account_details' },
        },
      ],
    });
    assert.equal(tpl.status, 201, JSON.stringify(tpl.body));
    const missing = await api.post('/v1/templates', {
      key: 'kyb-bad',
      name: 'bad',
      checks: [{ type: 'document', targets: ['main_company'], settings: {} }],
    });
    assert.equal(missing.status, 400);
    const kase = await api.post('/v1/cases', {
      name: 'From template',
      template_id: tpl.body.id,
      companies: [{ name: 'Acme Industries SAS', country: 'FR', type: 'main' }],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const checks = kase.body.companies[0].checks;
    assert.deepEqual(checks.map((c: any) => c.subtype).sort(), [
      'document_type:bank_account_details',
      'document_type:registration_certificate',
    ]);
    assert.ok(checks.every((c: any) => c.status === 'in_progress'));
  });

  test("a template's document type is checked when the template is written, not at each case", async () => {
    const api = await newWorkspace();
    const write = (key: string, target: string, docKey: string) =>
      api.post('/v1/templates', {
        key,
        name: key,
        checks: [{ type: 'document', targets: [target], settings: { document_type_key: docKey } }],
      });
    const unknown = await write('t-unknown', 'main_company', 'no_such_type');
    assert.equal(unknown.status, 400);
    // named down to the setting, as POST /v1/checks/document names it
    assert.equal(unknown.body.details[0].path, 'checks[0].settings.document_type_key');
    assert.match(unknown.body.message, /Unknown document type no_such_type/);
    // registration certificates are for companies: individuals cannot be given one
    const wrongTarget = await write('t-target', 'individuals', 'registration_certificate');
    assert.equal(wrongTarget.status, 400);
    assert.equal(wrongTarget.body.details[0].path, 'checks[0].settings.document_type_key');
    assert.match(wrongTarget.body.message, /for company entities, not individual/);
    const custom = await api.post('/v1/document_types', {
      key: 'kyc_form',
      label: 'KYC form',
      target_entities: ['company'],
      is_internal: false,
    });
    assert.equal(custom.status, 201, JSON.stringify(custom.body));
    assert.equal((await write('t-custom', 'main_company', 'kyc_form')).status, 201);
    // t-custom asks for it: it cannot be archived (test/document-types.test.ts)
    assert.equal((await api.delete(`/v1/document_types/${custom.body.id}`)).status, 400);
    const old = await api.post('/v1/document_types', {
      key: 'old_form',
      label: 'Old form',
      target_entities: ['company'],
    });
    assert.equal((await api.delete(`/v1/document_types/${old.body.id}`)).status, 204);
    const archived = await write('t-archived', 'main_company', 'old_form');
    assert.equal(archived.status, 400);
    assert.match(archived.body.message, /archived/);
    const listed = await api.get('/v1/templates');
    assert.deepEqual(listed.body.data.map((t: any) => t.key).sort(), ['t-custom']);
    // an update is checked the same way
    const tpl = listed.body.data[0];
    const update = await api.patch(`/v1/templates/${tpl.id}`, {
      checks: [{ type: 'document', targets: ['main_company'], settings: { document_type_key: 'nope' } }],
    });
    assert.equal(update.status, 400);
  });
});
