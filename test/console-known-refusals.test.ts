import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkPublicUrl } from '../src/webhooks/address-guard.ts';
import { knownRefusal } from '../web/console/features/known-refusals.ts';
import { newWorkspace } from './helpers/harness.ts';

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
    assert.equal(
      knownRefusal(said, 'en'),
      'Checks of type ekyc are run on people: choose people as their targets.',
    );
    assert.match(
      knownRefusal(said, 'fr') ?? '',
      /^Les contrôles de type ekyc portent sur des personnes : choisissez des personnes/,
    );

    // any other message is the server's own
    assert.equal(knownRefusal('name must not be blank', 'fr'), null);
  });
});
