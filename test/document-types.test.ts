import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BUILT_IN_DOCUMENT_TYPE_KEYS } from '../web/console/features/document-type-names.ts';
import { newWorkspace } from './helpers/harness.ts';

describe('document types', () => {
  test('built-in types are listed, paginated, with keys, labels and target entities', async () => {
    const api = await newWorkspace();
    const res = await api.get('/v1/document_types?limit=100&sort=key');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const keys = res.body.data.map((t: any) => t.key);
    // a new workspace lists exactly the built-in types: the console's list of them (it offers no
    // Archive for those) is the same
    assert.deepEqual([...keys].sort(), [...BUILT_IN_DOCUMENT_TYPE_KEYS].sort());
    assert.deepEqual(keys, [...keys].sort());
    const rib = res.body.data.find((t: any) => t.key === 'bank_account_details');
    assert.equal(rib.label, 'Bank account details (RIB)');
    assert.deepEqual(rib.target_entities, ['company', 'individual']);
    assert.equal(rib.is_internal, false);
    assert.equal(rib.archived_at, null);
    assert.equal(res.body.pagination.count, res.body.data.length);
    const page = await api.get('/v1/document_types?limit=2&page=2&sort=key');
    assert.deepEqual(
      page.body.data.map((t: any) => t.key),
      keys.slice(2, 4),
    );
    const filtered = await api.get('/v1/document_types?key.like=%25certificate%25');
    assert.deepEqual(filtered.body.data.map((t: any) => t.key).sort(), [
      'registration_certificate',
      'tax_certificate',
    ]);
    assert.equal((await api.get('/v1/document_types?sort=nope')).status, 400);
    assert.equal((await api.get('/v1/document_types?colour=red')).status, 400);
  });

  test('create a custom type: listed for its workspace only; key rules give 400 and 409', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const res = await api.post('/v1/document_types', {
      key: 'kbis_extract',
      label: 'Kbis extract',
      target_entities: ['company'],
      is_internal: true,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.key, 'kbis_extract');
    assert.equal(res.body.label, 'Kbis extract');
    assert.deepEqual(res.body.target_entities, ['company']);
    assert.equal(res.body.is_internal, true);
    assert.equal(res.body.archived_at, null);
    const mine = await api.get('/v1/document_types?key=kbis_extract');
    assert.equal(mine.body.data.length, 1);
    assert.equal(mine.body.data[0].id, res.body.id);
    assert.equal((await other.get('/v1/document_types?key=kbis_extract')).body.data.length, 0);
    // another workspace may use the same key
    const theirs = await other.post('/v1/document_types', {
      key: 'kbis_extract',
      label: 'Theirs',
      target_entities: ['company'],
    });
    assert.equal(theirs.status, 201);
    assert.equal(theirs.body.is_internal, false);

    const dup = await api.post('/v1/document_types', {
      key: 'kbis_extract',
      label: 'Again',
      target_entities: ['company'],
    });
    assert.equal(dup.status, 409);
    assert.match(dup.body.message, /already exists/);
    const shadow = await api.post('/v1/document_types', {
      key: 'proof_of_address',
      label: 'Mine',
      target_entities: ['individual'],
    });
    assert.equal(shadow.status, 409);
    assert.match(shadow.body.message, /built-in/);
    assert.equal(shadow.body.details[0].path, 'key');
    for (const bad of [
      { key: 'Bad-Key', label: 'x', target_entities: ['company'] },
      { key: '1abc', label: 'x', target_entities: ['company'] },
      { key: 'ok_key', label: '', target_entities: ['company'] },
      { key: 'ok_key', label: 'x', target_entities: [] },
      { key: 'ok_key', label: 'x', target_entities: ['case'] },
      { key: 'ok_key', label: 'x', target_entities: ['company', 'company'] },
      { key: 'ok_key', label: 'x' },
      { key: 'ok_key', label: 'x', target_entities: ['company'], colour: 'red' },
    ]) {
      const r = await api.post('/v1/document_types', bad);
      assert.equal(r.status, 400, JSON.stringify(bad));
    }
  });

  test('archive: the type leaves the list (back with include_archived); its key stays taken', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const created = (
      await api.post('/v1/document_types', { key: 'lease', label: 'Lease', target_entities: ['company'] })
    ).body;
    assert.equal((await other.delete(`/v1/document_types/${created.id}`)).status, 404);
    assert.equal((await api.delete(`/v1/document_types/${created.id}`)).status, 204);
    assert.equal((await api.get('/v1/document_types?key=lease')).body.data.length, 0);
    const archived = await api.get('/v1/document_types?key=lease&include_archived=true');
    assert.equal(archived.body.data.length, 1);
    assert.ok(archived.body.data[0].archived_at);
    assert.equal((await api.delete(`/v1/document_types/${created.id}`)).status, 404);
    const again = await api.post('/v1/document_types', {
      key: 'lease',
      label: 'Lease',
      target_entities: ['company'],
    });
    assert.equal(again.status, 409);
    assert.match(again.body.message, /archived/);
    const builtIn = (await api.get('/v1/document_types?key=registration_certificate')).body.data[0];
    const refused = await api.delete(`/v1/document_types/${builtIn.id}`);
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /Built-in/);
    assert.equal((await api.delete('/v1/document_types/not-a-uuid')).status, 400);
  });

  test('a type a template asks for cannot be archived (its cases would be refused) until taken out', async () => {
    const api = await newWorkspace();
    const lease = (
      await api.post('/v1/document_types', { key: 'lease', label: 'Lease', target_entities: ['company'] })
    ).body;
    const template = async (key: string) => {
      const res = await api.post('/v1/templates', {
        key,
        name: key,
        checks: [{ type: 'document', targets: ['main_company'], settings: { document_type_key: 'lease' } }],
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body;
    };
    const retail = await template('retail');
    await template('wholesale');
    const refused = await api.delete(`/v1/document_types/${lease.id}`);
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'CONFLICT');
    assert.equal(refused.body.details[0].path, 'id');
    assert.match(refused.body.message, /lease is used by the document checks of templates retail, wholesale/);
    assert.equal((await api.get('/v1/document_types?key=lease')).body.data[0].archived_at, null);
    // the templates' cases are still made
    const kase = await api.post('/v1/cases', {
      name: 'Lease holder',
      template_key: 'retail',
      companies: [{ type: 'main', name: 'Acme SAS', country: 'FR' }],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    // taken out of one, deleted the other: the type can go
    const patched = await api.patch(`/v1/templates/${retail.id}`, { checks: [] });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const still = await api.delete(`/v1/document_types/${lease.id}`);
    assert.match(still.body.message, /template wholesale:/);
    const wholesale = (await api.get('/v1/templates?key=wholesale')).body.data[0];
    assert.equal((await api.delete(`/v1/templates/${wholesale.id}`)).status, 204);
    assert.equal((await api.delete(`/v1/document_types/${lease.id}`)).status, 204);
  });
});
