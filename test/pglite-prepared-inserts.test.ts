/**
 * The embedded database keeps the statements marked with PREPARE_MARK (the hot inserts) as named
 * prepared statements (src/db/pglite-prepared-inserts.ts). These tests open an embedded database of
 * their own (in both passes of the suite) and check what a statement's reuse must not change: every
 * row stored, errors reported as before and the session usable after them, at most 64 statements
 * kept, nothing unmarked prepared. The case graph and the events, the two marked statements, are
 * written by every create of the rest of the suite.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import { insertValues } from '../src/db/insert-values.ts';
import { PREPARE_MARK } from '../src/db/pglite-prepared-inserts.ts';
import { ownPglite } from './helpers/own-pglite.ts';

describe('embedded database: prepared inserts', () => {
  const handle = ownPglite('prepared');
  // a scratch table: the statements below are the only ones of the session
  const db = () => handle().db as unknown as Kysely<{ t: { k: number; v: string } }>;
  type Row = { k: number; v: string };
  /** A marked insert of `rows` into t, through the transaction when one is given. */
  const insert = (rows: Row[], trx: Kysely<{ t: Row }> = db()) => {
    const { text, params } = insertValues('t' as never, rows as never);
    return trx.executeQuery(CompiledQuery.raw(`${PREPARE_MARK}${text}`, params));
  };
  const prepared = async () =>
    (
      await sql<{
        name: string;
        statement: string;
      }>`select name, statement from pg_prepared_statements`.execute(db())
    ).rows;

  before(async () => {
    await sql`create table t (k int primary key, v text not null)`.execute(db());
  });

  test('the same marked insert again reuses its statement; an unmarked one is not prepared', async () => {
    await insert([{ k: 1, v: 'a' }]);
    await insert([{ k: 2, v: 'b' }]);
    await db().insertInto('t').values({ k: -1, v: 'unmarked' }).execute();
    await db().deleteFrom('t').where('k', '=', -1).execute();
    await db().selectFrom('t').selectAll().where('k', '=', 1).execute();
    const kept = await prepared();
    assert.equal(kept.length, 1, JSON.stringify(kept));
    assert.equal(kept[0].statement, `${PREPARE_MARK}insert into "t" ("k", "v") values ($1, $2)`);
    const rows = await db().selectFrom('t').select(['k', 'v']).orderBy('k').execute();
    assert.deepEqual(rows, [
      { k: 1, v: 'a' },
      { k: 2, v: 'b' },
    ]);
  });

  test('a failing execution reports its error and the next one stores its row', async () => {
    await assert.rejects(insert([{ k: 1, v: 'again' }]), { code: '23505' });
    await insert([{ k: 3, v: 'c' }]);
    // a statement that fails in its own Parse (no such column) is not kept
    await assert.rejects(
      db().executeQuery(
        CompiledQuery.raw(`${PREPARE_MARK}insert into t (k, nope) values ($1, $2)`, [4, 'x']),
      ),
      {
        code: '42703',
      },
    );
    await insert([{ k: 4, v: 'd' }]);
    const rows = await db().selectFrom('t').select('k').orderBy('k').execute();
    assert.deepEqual(
      rows.map((r) => r.k),
      [1, 2, 3, 4],
    );
    assert.ok((await prepared()).every((p) => !p.statement.includes('nope')));
  });

  test('inside a transaction that fails, nothing is stored and the session goes on', async () => {
    await assert.rejects(
      db()
        .transaction()
        .execute(async (trx) => {
          await insert([{ k: 10, v: 'x' }], trx);
          await insert([{ k: 1, v: 'dup' }], trx);
        }),
      { code: '23505' },
    );
    assert.equal((await db().selectFrom('t').select('k').where('k', '=', 10).execute()).length, 0);
    await db()
      .transaction()
      .execute(async (trx) => {
        await insert([{ k: 10, v: 'x' }], trx);
      });
    assert.equal((await db().selectFrom('t').select('k').where('k', '=', 10).execute()).length, 1);
  });

  test('at most 64 statements are kept; the least recently used are closed', async () => {
    // 70 distinct texts: inserts of 1 to 70 rows
    let k = 1000;
    for (let n = 1; n <= 70; n++) {
      const rows = Array.from({ length: n }, () => ({ k: k++, v: `n${n}` }));
      await insert(rows);
    }
    // one more statement sends the closes still pending
    await insert([{ k: k++, v: 'last' }]);
    const kept = await prepared();
    assert.ok(kept.length <= 64 && kept.length >= 60, `kept ${kept.length}`);
    const stored = await db()
      .selectFrom('t')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('k', '>=', 1000)
      .execute();
    assert.equal(stored[0].n, (70 * 71) / 2 + 1);
    // a statement closed by the eviction is prepared again on its next use
    await insert([{ k: k++, v: 'n1 again' }]);
    assert.equal((await db().selectFrom('t').select('k').where('v', '=', 'n1 again').execute()).length, 1);
  });
});
