import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ValidateFunction } from 'ajv';
import { expireDueChecks } from '../src/checks/engine/expire-checks.ts';
import { emitDueReviews } from '../src/events/emit-review-due.ts';
import { createConsoleUser } from './helpers/console-session.ts';
import { makePng, uploadRef } from './helpers/files.ts';
import { newAjv } from './helpers/fuzz-operations.ts';
import { eventually, getHarness, newWorkspace } from './helpers/harness.ts';
import { referenceErrors } from './helpers/reference-ajv.ts';
import { deref, type Schema } from './helpers/schema-arbitrary.ts';

// What a receiver generated from the reference's webhook schemas sees: one workspace goes through
// the integrator's usual steps (a case graph, entities added and changed, every case sub-event an
// API call causes, notes, checks decided and reviewed, registry documents, a portal wait step, a
// review, a report, the scheduled jobs' expiry and review date, deletions), every
// delivery is read back from the webhook logs and validated with ajv against the reference's schema
// for its event, enumerations, formats and nullability included; and against the body our own
// OpenAPI document's `webhooks` section declares for the event (no undeclared key either).

/** A validator per event, from the `webhooks` section of the served document. */
function ourWebhookValidators(doc: Schema): Map<string, ValidateFunction> {
  const ajv = newAjv();
  const out = new Map<string, ValidateFunction>();
  for (const [event, item] of Object.entries<Schema>(doc.webhooks ?? {})) {
    const schema = item.post?.requestBody?.content?.['application/json']?.schema;
    if (schema) out.set(event, ajv.compile(deref(schema, doc)));
  }
  return out;
}

const CHECK_WEBHOOK: Record<string, string> = {
  aml: 'AmlCheckWebhook',
  document: 'DocumentCheckWebhook',
  ekyc: 'EkycCheckWebhook',
  electronic_signature: 'ElectronicSignatureCheckWebhook',
  fraud_database: 'FraudDatabaseCheckWebhook',
  id_document: 'IdDocumentCheckWebhook',
  id_verification: 'IdVerificationCheckWebhook',
  online_reputation: 'OnlineReputationCheckWebhook',
  company_monitoring: 'CompanyMonitoringCheckWebhook',
};

function schemaFor(p: { event: string; check?: { type: string } }): string | undefined {
  const e = p.event;
  if (e === 'Case.Deleted') return 'CaseDeletedWebhook';
  if (e.startsWith('CaseReport.')) return 'CaseReportWebhook';
  if (e.startsWith('Case.')) return 'CaseWebhook';
  if (e === 'Individual.Deleted') return 'IndividualDeletedWebhook';
  if (e.startsWith('Individual.')) return 'IndividualWebhook';
  if (e === 'Company.Deleted') return 'CompanyDeletedWebhook';
  if (e.startsWith('Company.')) return 'CompanyWebhook';
  if (e.startsWith('NoteComment.')) return 'NoteCommentWebhook';
  if (e.startsWith('Note.')) return 'NoteWebhook';
  if (e === 'Check.Deleted') return 'CheckDeletedWebhook';
  if (e.startsWith('Check.')) return p.check ? CHECK_WEBHOOK[p.check.type] : undefined;
  if (e.startsWith('DocumentOrder.')) return 'DocumentOrderWebhook';
  return undefined;
}

describe('webhook payloads against the reference schemas', () => {
  test('every delivery of an integrator’s workflow validates against its reference webhook schema', async () => {
    const api = await newWorkspace('webhook-payloads');
    const ok = (res: { status: number; body: unknown }, status: number) =>
      assert.equal(res.status, status, JSON.stringify(res.body));
    const hook = await api.post('/v1/webhooks', {
      url: 'https://example.com/hooks',
      events: ['*'],
      status: 'offline',
    });
    ok(hook, 201);
    const template = await api.post('/v1/templates', {
      key: 'kyb',
      name: 'KYB',
      checks: [{ type: 'ekyc', targets: ['legal_representatives'] }],
    });
    ok(template, 201);

    const kase = await api.post('/v1/cases', {
      name: 'Payloads',
      external_id: 'payloads-1',
      companies: [{ type: 'main', name: 'Acme SAS', country: 'FR', registration_number: '552100554' }],
      individuals: [
        {
          first_name: 'Ada',
          last_name: 'Lovelace',
          birth_date: '1985-12-10',
          email: 'ada@example.com',
          is_business_contact: true,
          address: { country: 'FR' },
          relations: [{ roles: ['legal_representative'], position: 'CEO' }],
        },
      ],
    });
    ok(kase, 201);
    const caseId = kase.body.id;
    const mainId = kase.body.companies[0].id;
    const ada = kase.body.individuals[0].id;

    // entities added one by one, changed, marked not relevant and back, related
    const sub = await api.post('/v1/companies', {
      case_id: caseId,
      type: 'affiliated',
      name: 'Acme Holding',
      country: 'FR',
    });
    ok(sub, 201);
    const person = await api.post('/v1/individuals', {
      case_id: caseId,
      first_name: 'Inès',
      last_name: 'Inconclusive',
      birth_date: '1990-02-03',
      address: { country: 'FR' },
    });
    ok(person, 201);
    ok(await api.patch(`/v1/companies/${sub.body.id}`, { commercial_name: 'Holding' }), 200);
    ok(await api.patch(`/v1/individuals/${person.body.id}`, { phone_number: '+33612345678' }), 200);
    for (const is_relevant of [false, true]) {
      ok(await api.post(`/v1/companies/${sub.body.id}/set-relevant`, { is_relevant }), 200);
      ok(await api.post(`/v1/individuals/${person.body.id}/set-relevant`, { is_relevant }), 200);
    }
    ok(
      await api.post(`/v1/cases/${caseId}/relations`, {
        from_company_id: sub.body.id,
        to_company_id: mainId,
        roles: ['shareholder'],
        ownership_percentage: 75,
      }),
      201,
    );

    // every case sub-event an API call causes (the assignee: a reviewer of the workspace)
    const assignee = await createConsoleUser((await getHarness()).ctx, api.workspaceId, { role: 'reviewer' });
    for (const change of [
      { name: 'Payloads renamed' },
      { custom_properties: { segment: 'retail', score: 3 } },
      { status: 'open' },
      { assignee_id: assignee.id },
      { metadata: { crm: '42' } },
      { tags: ['vip'] },
      { template_key: 'kyb' },
    ])
      ok(await api.patch(`/v1/cases/${caseId}`, change), 200);
    ok(await api.post(`/v1/cases/${caseId}/risks`, { level: 'medium', score: 40 }), 201);

    // notes, checks decided by the provider and by review, a deletion
    const note = await api.post('/v1/notes', { case_id: caseId, content: 'Called the CFO.' });
    ok(note, 201);
    ok(await api.post(`/v1/notes/${note.body.id}/comments`, { content: 'Confirmed.' }), 201);
    const undecided = await api.post('/v1/checks/ekyc', { individual_id: person.body.id });
    ok(undecided, 201);
    assert.equal(undecided.body.status, 'need_review');
    ok(
      await api.patch(`/v1/checks/ekyc/${undecided.body.id}/review`, { action: 'reject', comment: 'no' }),
      200,
    );
    const aml = await api.post('/v1/checks/aml', { company_id: mainId });
    ok(aml, 201);
    const fraud = await api.post('/v1/checks/fraud-database', { individual_id: ada });
    ok(fraud, 201);
    ok(await api.delete(`/v1/checks/${fraud.body.id}`), 204);

    // a registry document ordered (one delivered, one failed) and the case shared with its contact
    // through the portal (a case change without a sub-event)
    for (const product_ref of ['sandbox_registry_extract', 'sandbox_fail'])
      ok(await api.post('/v1/company-data/document-orders', { company_id: mainId, product_ref }), 201);
    // with a wait step on the portal: the contact's last action (the files of a document check
    // waiting for them) puts the case on it (Case.ClientPortalWaitStepTriggered)
    const portal = (await api.get('/v1/client-portals')).body.data[0];
    ok(
      await api.patch(`/v1/client-portals/${portal.id}`, {
        wait_steps: [{ key: 'review', title: 'We review your documents' }],
      }),
      200,
    );
    ok(await api.post(`/v1/cases/${caseId}/share-client-portal-link`, { business_contact_id: ada }), 201);
    const waiting = await api.post('/v1/checks/document', {
      company_id: mainId,
      settings: { document_type_key: 'registration_certificate' },
    });
    ok(waiting, 201);
    const upload = await uploadRef(
      api,
      makePng({ width: 6, height: 4, text: { sandbox_outcome: 'undecided' } }),
    );
    ok(
      await api.post(`/v1/checks/document/${waiting.body.id}/add_files`, { files: [{ upload_ref: upload }] }),
      201,
    );

    // the review, the report, and the deletions
    ok(await api.post(`/v1/cases/${caseId}/reviews`, { status: 'approved', comment: 'ok' }), 201);
    ok(await api.post(`/v1/cases/${caseId}/generate-report`, {}), 204);
    ok(await api.delete(`/v1/individuals/${person.body.id}`), 204);
    ok(await api.delete(`/v1/companies/${sub.body.id}`), 204);
    const other = await api.post('/v1/cases', { name: 'Deleted' });
    ok(other, 201);
    ok(await api.delete(`/v1/cases/${other.body.id}`), 204);

    // the scheduled jobs' events: a check past its expiry date, a case whose review date has come
    const { ctx } = await getHarness();
    const expiring = await api.post('/v1/checks/ekyc', { individual_id: ada });
    ok(expiring, 201);
    await ctx.db
      .updateTable('checks')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expiring.body.id)
      .execute();
    assert.ok((await expireDueChecks(ctx)) >= 1);
    await ctx.db
      .updateTable('cases')
      .set({ next_review_at: '2020-01-01' })
      .where('id', '=', caseId)
      .execute();
    // emitted by this call, or by the scheduled job (every 5 minutes in every test process's
    // workers) if it took the case first: either way once. The job's transaction locks the case
    // (this call skips it) and can still roll back (CI saw its process stop mid-run), so the call
    // is repeated until the event is there.
    await eventually(async () => {
      assert.ok((await emitDueReviews(ctx.db, { workspaceId: api.workspaceId })) <= 1);
      const due = await ctx.db
        .selectFrom('events')
        .select('id')
        .where('case_id', '=', caseId)
        .where('type', '=', 'Case.ReviewDue')
        .execute();
      assert.ok(due.length <= 1, `${due.length} Case.ReviewDue events`);
      return due.length === 1;
    });

    const expected = [
      'Case.Created',
      'Case.Updated/Case.InfoUpdated',
      'Case.Updated/Case.StatusUpdated',
      'Case.Updated/Case.AssigneeUpdated',
      'Case.Updated/Case.MetadataUpdated',
      'Case.Updated/Case.TagsUpdated',
      'Case.Updated/Case.TemplateUpdated',
      'Case.Updated/Case.RiskUpdated',
      'Case.Updated/Case.RelationsUpdated',
      'Case.ReviewConfirmed',
      'Case.Deleted',
      'Case.Updated',
      'Case.ClientPortalWaitStepTriggered',
      'Case.ReviewDue',
      'CaseReport.Generated',
      'DocumentOrder.Completed',
      'DocumentOrder.Failed',
      'Company.Created',
      'Company.Updated/Company.InfoUpdated',
      'Company.Updated/Company.MarkedAsNotRelevant',
      'Company.Updated/Company.MarkedAsRelevant',
      'Company.Deleted',
      'Individual.Created',
      'Individual.Updated/Individual.InfoUpdated',
      'Individual.Updated/Individual.MarkedAsNotRelevant',
      'Individual.Updated/Individual.MarkedAsRelevant',
      'Individual.Deleted',
      'Note.Created',
      'NoteComment.Created',
      'Check.Started',
      'Check.Approved',
      'Check.ReviewNeeded',
      'Check.Rejected',
      'Check.Deleted',
      'Check.Expired',
    ];
    let missing: string[] = [];
    const payloads = await eventually(async () => {
      const all: { event: string; sub_event?: string; check?: { type: string } }[] = [];
      for (let page = 1; ; page++) {
        const res = await api.get(`/v1/webhook-logs?webhook_id=${hook.body.id}&limit=50&page=${page}`);
        ok(res, 200);
        all.push(...res.body.data.map((l: { payload: never }) => l.payload));
        if (page * 50 >= res.body.pagination.count) break;
      }
      const names = new Set(all.map((p) => (p.sub_event ? `${p.event}/${p.sub_event}` : p.event)));
      missing = expected.filter((n) => !names.has(n));
      return missing.length === 0 ? all : undefined;
    }, 20_000).catch(() => assert.fail(`never delivered: ${missing.join(', ')}`));

    const problems: string[] = [];
    for (const p of payloads) {
      const name = schemaFor(p);
      const label = `${p.event}${p.sub_event ? `/${p.sub_event}` : ''}${p.check ? ` (${p.check.type})` : ''}`;
      if (!name) problems.push(`${label}: no reference schema`);
      else problems.push(...referenceErrors(name, p).map((e) => `${label}: ${e}`));
    }
    assert.deepEqual([...new Set(problems)], []);

    // the same deliveries against what our document promises for each event
    const served = await api.get('/v1/openapi.json');
    ok(served, 200);
    const ours = ourWebhookValidators(served.body);
    // the workflow sends every event the section lists: each declared body is checked by a delivery
    const sent = new Set(payloads.map((p) => p.event));
    assert.deepEqual(
      [...ours.keys()].filter((e) => !sent.has(e)),
      [],
    );
    const mismatches: string[] = [];
    for (const p of payloads) {
      const label = `${p.event}${p.sub_event ? `/${p.sub_event}` : ''}${p.check ? ` (${p.check.type})` : ''}`;
      const validate = ours.get(p.event);
      if (!validate) mismatches.push(`${label}: not in the document's webhooks`);
      else if (!validate(p))
        mismatches.push(
          ...(validate.errors ?? []).map(
            (e) => `${label}: ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`,
          ),
        );
    }
    assert.deepEqual([...new Set(mismatches)], []);
  });
});
