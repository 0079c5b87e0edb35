/**
 * Timestamps as the API writes them: the database's `timestamptz` text read by the fast parser
 * (src/db/timestamp-parser.ts) or, for any other form, by the driver's own, and written back by
 * `iso` (src/shared/time.ts) exactly as `Date.prototype.toISOString` would. Stored values are set
 * with SQL (every fraction length, a year before 1000), then read through the list and the case.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { before, describe, test } from 'node:test';
import { types } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { parseUtcTimestamp, timestampParser } from '../src/db/timestamp-parser.ts';
import { iso } from '../src/shared/time.ts';
import { type Client, getHarness, newWorkspace } from './helpers/harness.ts';

/** Stored text → what the API answers. */
const STORED: [string, string][] = [
  ['2026-11-28 08:01:17+00', '2026-11-28T08:01:17.000Z'],
  ['2026-11-28 08:01:17.5+00', '2026-11-28T08:01:17.500Z'],
  ['2026-11-28 08:01:17.04+00', '2026-11-28T08:01:17.040Z'],
  ['2026-11-28 08:01:17.123456+00', '2026-11-28T08:01:17.123Z'],
  ['2026-11-28 08:01:17.999999+00', '2026-11-28T08:01:17.999Z'],
  ['2000-02-29 23:59:59.0001+00', '2000-02-29T23:59:59.000Z'],
  ['1970-01-01 00:00:00+00', '1970-01-01T00:00:00.000Z'],
  ['0999-01-02 03:04:05.006+00', '0999-01-02T03:04:05.006Z'],
];

describe('timestamps: stored text to the API ISO form', () => {
  let api: Client;
  const ids: string[] = [];
  before(async () => {
    api = await newWorkspace('timestamps');
    const { ctx } = await getHarness();
    for (const [i, [stored]] of STORED.entries()) {
      const created = await api.post('/v1/cases', { name: `Timestamps ${i}` });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      ids.push(created.body.id);
      await sql`update cases set created_at = ${stored}::timestamptz, updated_at = ${stored}::timestamptz
        where id = ${created.body.id}`.execute(ctx.db);
    }
  });

  test('a case read alone gives each stored instant to the millisecond, truncated', async () => {
    for (const [i, [, expected]] of STORED.entries()) {
      const res = await api.get(`/v1/cases/${ids[i]}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.created_at, expected, STORED[i][0]);
      assert.equal(res.body.updated_at, expected, STORED[i][0]);
    }
  });

  test('the list gives the same strings, in the stored order', async () => {
    const res = await api.get('/v1/cases?sort=created_at.asc&limit=50');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const byId = new Map(res.body.data.map((c: { id: string; created_at: string }) => [c.id, c.created_at]));
    for (const [i, [, expected]] of STORED.entries()) assert.equal(byId.get(ids[i]), expected);
    const listed = res.body.data.map((c: { created_at: string }) => c.created_at);
    assert.deepEqual(listed, [...listed].sort());
  });
});

describe('timestamp parser: the same instant as each driver parser', () => {
  // node-postgres's own timestamptz parser (pg-types → postgres-date), which src/db/connect.ts
  // replaces for the common form: loaded here from where pg-types loads it
  const require = createRequire(import.meta.url);
  const pgParse = createRequire(require.resolve('pg-types'))('postgres-date') as (text: string) => unknown;
  const pgliteParse = (text: string) => types.parsers[types.TIMESTAMPTZ](text, types.TIMESTAMPTZ) as Date;
  const fractions = ['', '.0', '.9', '.05', '.123', '.1234', '.98765', '.000001', '.999999', '.5'];
  const times = ['1000-01-01 00:00:00', '1999-12-31 23:59:59', '2024-02-29 12:30:45', '9999-12-31 23:59:59'];

  test('the common form: equal to postgres-date and to PGlite for every fraction length', () => {
    for (const time of times) {
      for (const fraction of fractions) {
        const text = `${time}${fraction}+00`;
        const fast = parseUtcTimestamp(text);
        assert.ok(fast, text);
        assert.equal(fast.getTime(), (pgParse(text) as Date).getTime(), text);
        assert.equal(fast.getTime(), pgliteParse(text).getTime(), text);
      }
    }
    // every fraction of up to four digits
    for (let digits = 1; digits <= 4; digits++) {
      for (let f = 0; f < 10 ** digits; f++) {
        const text = `2026-11-28 08:01:17.${String(f).padStart(digits, '0')}+00`;
        assert.equal(parseUtcTimestamp(text)?.getTime(), (pgParse(text) as Date).getTime(), text);
      }
    }
  });

  test('any other form goes to the driver parser', () => {
    const seen: string[] = [];
    const parse = timestampParser((text) => {
      seen.push(text);
      return 'fallback';
    });
    const others = [
      '2026-11-28 08:01:17+01',
      '2026-11-28 08:01:17.5+05:30',
      '0999-01-02 03:04:05+00',
      '12345-01-01 00:00:00+00',
      '2026-11-28 08:01:17+00 BC',
      'infinity',
      '-infinity',
      '2026-11-28T08:01:17+00',
      '2026-11-28 08:01:17.+00',
      '2026-11-28 08:01:17.1234567+00',
      '2026-1x-28 08:01:17+00',
    ];
    for (const text of others) assert.equal(parse(text), 'fallback', text);
    assert.deepEqual(seen, others);
    assert.equal((pgParse('infinity') as number) === Number.POSITIVE_INFINITY, true);
  });

  test('the database driver reads timestamptz into Dates through it', async () => {
    const { ctx } = await getHarness();
    const { rows } = await sql<{ t: Date }>`select '2026-11-28 08:01:17.123456+00'::timestamptz as t`.execute(
      ctx.db,
    );
    assert.ok(rows[0].t instanceof Date);
    assert.equal(rows[0].t.toISOString(), '2026-11-28T08:01:17.123Z');
  });
});

describe('iso: Date.prototype.toISOString, faster', () => {
  test('the same string for years 0 to 9999 and outside them', () => {
    const instants = [
      0,
      -1,
      Date.UTC(2026, 10, 28, 8, 1, 17, 5),
      Date.UTC(999, 0, 2, 3, 4, 5, 6),
      Date.UTC(0, 0, 1) - 86_400_000 * 366 * 1900,
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999) + 1,
      -62_198_755_200_000, // year 0
      -62_198_755_200_001, // year -1
      8.64e15,
      -8.64e15,
    ];
    // 2,000 instants spread from the year -300 to 12000
    const from = Date.UTC(-300, 0, 1);
    const to = Date.UTC(12000, 0, 1);
    for (let i = 0; i < 2000; i++)
      instants.push(from + Math.floor(((to - from) * ((i * 7919) % 2000)) / 2000) + i);
    for (const t of instants) assert.equal(iso(new Date(t)), new Date(t).toISOString(), String(t));
    assert.equal(iso('2026-11-28T08:01:17.017+00:00'), '2026-11-28T08:01:17.017Z');
  });

  test('an invalid date throws as toISOString does', () => {
    assert.throws(() => iso(new Date(Number.NaN)), RangeError);
  });
});
