import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { hashIdentifier, hashSecret } from '../src/fraud-database/hashing.ts';
import {
  joinedApostropheNameKey,
  nameKey,
  normaliseEmail,
  normaliseIban,
  normaliseNameBirthDate,
  normalisePhone,
  normaliseRegistration,
} from '../src/fraud-database/normalize.ts';
import { getHarness } from './helpers/harness.ts';

/** The normalisations the fraud list compares with, and its hashing key. */
describe('fraud list normalisation and key', () => {
  test('two spellings of one identifier normalise alike; invalid ones are dropped', () => {
    assert.equal(normaliseEmail('  Ada.Lovelace@Example.COM '), 'ada.lovelace@example.com');
    assert.equal(normaliseEmail('not an address'), null);
    assert.equal(normalisePhone('06 12 34 56 78', 'FR'), '+33612345678');
    assert.equal(normalisePhone('+33 6 12 34 56 78', null), '+33612345678');
    assert.equal(normalisePhone('12', 'FR'), null);
    assert.equal(normaliseIban('fr76 3000 6000 0112 3456 7890 189'), 'FR7630006000011234567890189');
    assert.equal(normaliseIban('FR7630006000011234567890188'), null); // wrong check digits
    assert.equal(normaliseRegistration('552 100 554', 'fr'), 'FR:552100554');
    assert.equal(normaliseRegistration('HRB-12.345', 'DE'), 'DE:HRB12345');
    assert.equal(normaliseRegistration('552100554', null), null);
    assert.equal(nameKey('Élodie', 'DURAND-Lefèvre'), 'durand elodie lefevre');
    assert.equal(nameKey('Lefevre Durand', 'elodie'), 'durand elodie lefevre');
    assert.equal(normaliseNameBirthDate('Ada', 'Lovelace', '1985-12-10'), 'ada lovelace|1985-12-10');
    assert.equal(normaliseNameBirthDate('Ada', 'Lovelace', null), null);
    assert.equal(nameKey('Jean-Pierre', "L'Hôte"), 'hote jean l pierre');
    assert.equal(joinedApostropheNameKey('Jean-Pierre', 'L\u2019Hôte'), 'jean lhote pierre');
    assert.equal(joinedApostropheNameKey('JEAN PIERRE', 'LHOTE'), null);
  });

  test('the key: configured wins; otherwise one generated key, kept in the database', async () => {
    const { ctx } = await getHarness();
    const configured = {
      ...ctx,
      config: { ...ctx.config, fraudHashSecret: 'a-configured-key-of-32-chars!!!!' },
    };
    assert.equal(await hashSecret(configured, ctx.db), 'a-configured-key-of-32-chars!!!!');
    const generated = await hashSecret(ctx, ctx.db);
    assert.ok(generated.length >= 40);
    const row = await ctx.db
      .selectFrom('service_secrets')
      .select('value')
      .where('name', '=', 'fraud_hash_secret')
      .executeTakeFirstOrThrow();
    assert.equal(row.value, generated);
    assert.equal(await hashSecret(ctx, ctx.db), generated);
    const a = hashIdentifier(generated, { kind: 'email', value: 'x@y.z' });
    assert.match(a, /^[0-9a-f]{64}$/);
    assert.notEqual(a, hashIdentifier(generated, { kind: 'phone', value: 'x@y.z' }));
    assert.notEqual(a, hashIdentifier('another key', { kind: 'email', value: 'x@y.z' }));
    assert.throws(() => loadConfig({ VERICASE_FRAUD_HASH_SECRET: 'short' }), /at least 16/);
  });
});
