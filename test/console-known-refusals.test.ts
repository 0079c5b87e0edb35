import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkPublicUrl } from '../src/webhooks/address-guard.ts';
import { isOutage, knownRefusal } from '../web/console/features/known-refusals.ts';
import { createConsoleUser, signInHeaders } from './helpers/console-session.ts';
import { getHarness, newWorkspace } from './helpers/harness.ts';

/**
 * The console says the API's refusals it meets in its own forms in its own words: each pattern is
 * tried on the message the service really answers (not a copy of it), so a reworded message fails
 * here instead of reaching a reviewer in English.
 */
describe('console: known refusals in the console words', () => {
  test('a private webhook address, a relation given twice, a template target of the wrong kind', async () => {
    const privateUrl = await checkPublicUrl(new URL('http://10.0.0.7/hook'));
    assert.ok(privateUrl);
    assert.match(
      knownRefusal(privateUrl, 'en') ?? '',
      /private or local: webhooks are sent to addresses reachable/,
    );
    assert.match(knownRefusal(privateUrl, 'fr') ?? '', /privée ou locale/);

    const api = await newWorkspace();
    const kase = await api.post('/v1/cases', {
      name: 'Known refusals',
      companies: [{ type: 'main', name: 'Acme SAS', country: 'FR' }],
      individuals: [{ first_name: 'Ada', last_name: 'Lovelace', relations: [{ roles: ['shareholder'] }] }],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const again = await api.post(`/v1/cases/${kase.body.id}/relations`, {
      from_individual_id: kase.body.individuals[0].id,
      to_company_id: kase.body.companies[0].id,
      roles: ['legal_representative'],
    });
    assert.equal(again.status, 400, JSON.stringify(again.body));
    assert.equal(
      knownRefusal(again.body.message, 'en'),
      'This relation already exists: change the one there instead.',
    );
    assert.equal(
      knownRefusal(again.body.message, 'fr'),
      'Cette relation existe déjà : modifiez celle qui est là.',
    );

    const template = await api.post('/v1/templates', {
      key: 'wrong_target',
      name: 'Wrong target',
      checks: [{ type: 'ekyc', targets: ['main_company'] }],
    });
    assert.equal(template.status, 400, JSON.stringify(template.body));
    const said = template.body.details?.[0]?.message ?? template.body.message;
    // named as the template dialog names it: checks[0] is its "Check 1"
    assert.equal(
      knownRefusal(said, 'en'),
      'Check 1: checks of type ekyc are run on people: choose people as their targets.',
    );
    assert.match(
      knownRefusal(said, 'fr') ?? '',
      /^Contrôle 1 : les contrôles de type ekyc portent sur des personnes : choisissez des personnes/,
    );
    // a document check whose document type is a company's, on people (the console walk read
    // "checks[1].settings.document_type_key: Document type registration_certificate is for company
    // entities, not individual entities" under the dialog's "Check 2")
    const wrongDocument = await api.post('/v1/templates', {
      key: 'wrong_document',
      name: 'Wrong document',
      checks: [
        { type: 'aml', targets: ['individuals'] },
        {
          type: 'document',
          targets: ['individuals'],
          settings: { document_type_key: 'registration_certificate' },
        },
      ],
    });
    assert.equal(wrongDocument.status, 400, JSON.stringify(wrongDocument.body));
    assert.equal(
      knownRefusal(wrongDocument.body.message, 'en'),
      "Check 2: the document type registration_certificate is asked of companies, not of people: choose companies as the check's targets, or a document type for people.",
    );
    assert.equal(
      knownRefusal(wrongDocument.body.message, 'fr'),
      'Contrôle 2 : le type de document registration_certificate se demande à des sociétés, pas à des personnes : choisissez des sociétés comme cibles du contrôle, ou un type de document pour des personnes.',
    );
    // the same refusal of a check created alone: no check number
    const alone = await api.post('/v1/checks/document', {
      individual_id: kase.body.individuals[0].id,
      settings: { document_type_key: 'registration_certificate' },
    });
    assert.equal(alone.status, 400, JSON.stringify(alone.body));
    assert.match(
      knownRefusal(alone.body.message, 'en') ?? '',
      /^The document type registration_certificate is asked of companies, not of people/,
    );

    // the input formats and conflicts every form meets, named by the field in the page's words
    const label = (field: string) => ({ country: 'Pays', first_name: 'Prénom' })[field] ?? field;
    const badCountry = await api.post('/v1/cases', {
      name: 'x',
      companies: [{ type: 'main', name: 'Acme SAS', country: 'ZZ' }],
    });
    assert.equal(badCountry.status, 400);
    assert.equal(
      knownRefusal(badCountry.body.message, 'fr', label),
      'Pays : indiquez le code ISO du pays, en deux lettres (FR, DE, GB…).',
    );
    assert.equal(
      knownRefusal(badCountry.body.message, 'en'),
      "country: give the country's two-letter ISO code (FR, DE, GB...).",
    );
    const blank = await api.post('/v1/cases', {
      name: 'x',
      companies: [{ type: 'main', name: 'Acme SAS' }],
      individuals: [{ first_name: '', last_name: 'Martin', relations: [{ roles: ['shareholder'] }] }],
    });
    assert.equal(blank.status, 400);
    assert.equal(
      knownRefusal(blank.body.message, 'fr', label),
      'Prénom est obligatoire : ce champ ne peut pas rester vide.',
    );
    assert.equal((await api.post('/v1/cases', { name: 'one', external_id: 'sge-001' })).status, 201);
    const taken = await api.post('/v1/cases', { name: 'two', external_id: 'sge-001' });
    assert.equal(taken.status, 409);
    assert.equal(
      knownRefusal(taken.body.message, 'fr'),
      'Un autre dossier porte déjà la référence « sge-001 » : choisissez-en une autre.',
    );
    const outage = await api.get('/v1/company-data/search?country=FR&name=unavailable%20boulangerie');
    assert.equal(outage.status, 503, JSON.stringify(outage.body));
    assert.match(
      knownRefusal(outage.body.message, 'fr') ?? '',
      /^Le registre des sociétés \(sandbox\) est injoignable/,
    );
    assert.equal(isOutage(outage.body.message), true);
    assert.equal(isOutage(taken.body.message), false);

    // a birth date that cannot be one (the console walk read "birth_date must not be in the future:
    // it is 2090-01-01"), by the field's label and the date as the console writes dates
    const labelFr = (field: string) => ({ birth_date: 'Date de naissance' })[field] ?? field;
    const future = await api.post('/v1/individuals', {
      case_id: kase.body.id,
      first_name: 'Jean',
      last_name: 'Dupont',
      birth_date: '2090-01-01',
      relations: [{ to_company_id: kase.body.companies[0].id, roles: ['legal_representative'] }],
    });
    assert.equal(future.status, 400, JSON.stringify(future.body));
    assert.equal(
      knownRefusal(future.body.message, 'en'),
      'birth date: 1 Jan 2090 is in the future: check the year.',
    );
    assert.equal(
      knownRefusal(future.body.message, 'fr', labelFr),
      'Date de naissance : le 1 janv. 2090 est dans le futur : vérifiez l’année.',
    );
    const early = await api.patch(`/v1/individuals/${kase.body.individuals[0].id}`, {
      birth_date: '0001-01-01',
    });
    assert.equal(early.status, 400, JSON.stringify(early.body));
    assert.equal(
      knownRefusal(early.body.message, 'en'),
      'birth date: 1 Jan 1 is before 1900: check the year.',
    );

    // any other message is the server's own
    assert.equal(
      knownRefusal('The check is approved: its hits can be reviewed while it is need_review', 'fr'),
      null,
    );
  });

  test('a role changed under the page: the role now and what the action needs, in words', async () => {
    const { app, ctx } = await getHarness();
    const api = await newWorkspace();
    const kase = await api.post('/v1/cases', { name: 'Role changed' });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    // a reviewer whose page is open is made a viewer by an admin: their next write is refused
    const rita = await createConsoleUser(ctx, api.workspaceId, { role: 'reviewer' });
    const headers = await signInHeaders(app, rita.email, rita.password);
    const demoted = await api.patch(`/v1/users/${rita.id}`, { role: 'viewer' });
    assert.equal(demoted.status, 200, JSON.stringify(demoted.body));
    const tag = await app.inject({
      method: 'POST',
      url: `/v1/cases/${kase.body.id}/tags`,
      headers,
      payload: { tags: ['late'] },
    });
    assert.equal(tag.statusCode, 403, tag.body);
    const message = JSON.parse(tag.body).message;
    // not the route and the role's code ("POST /v1/cases/:id/tags needs reviewer")
    assert.equal(
      knownRefusal(message, 'en'),
      'Your role is now viewer: this needs a reviewer or an administrator.',
    );
    assert.equal(
      knownRefusal(message, 'fr'),
      'Votre rôle est désormais lecteur : cette action est réservée aux réviseurs et aux administrateurs.',
    );
    // an admin's page: a reviewer now (another admin stays: the last one cannot be demoted)
    await createConsoleUser(ctx, api.workspaceId, { role: 'admin' });
    const ann = await createConsoleUser(ctx, api.workspaceId, { role: 'admin' });
    const annHeaders = await signInHeaders(app, ann.email, ann.password);
    assert.equal((await api.patch(`/v1/users/${ann.id}`, { role: 'reviewer' })).status, 200);
    const settings = await app.inject({
      method: 'PATCH',
      url: '/v1/workspace/settings',
      headers: annHeaders,
      payload: {},
    });
    assert.equal(settings.statusCode, 403, settings.body);
    assert.equal(
      knownRefusal(JSON.parse(settings.body).message, 'en'),
      'Your role is now reviewer: this needs an administrator.',
    );
    assert.equal(
      knownRefusal(JSON.parse(settings.body).message, 'fr'),
      'Votre rôle est désormais réviseur : cette action est réservée aux administrateurs.',
    );
  });
});
