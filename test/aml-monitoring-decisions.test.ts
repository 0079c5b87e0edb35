/**
 * Monitoring keeps the decisions a list update does not touch: a confirmed hit whose listing gained an
 * alias stays confirmed and the rejected check stays rejected; a false positive the list now fits
 * better is reviewed again, its earlier decision kept in `previous_reviews`.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { ListLoadResult } from '../src/screening/entity.ts';
import { loadReferenceDirectory } from '../src/screening/index.ts';
import type { ScreeningService } from '../src/screening/service/screening-service.ts';
import { type Client, eventually, getHarness, newWorkspace, SHARED_DATA_DIR } from './helpers/harness.ts';

const LI = 'ofac_sdn:11447'; // LI, Fangwei: DOB 18 Sep 1972, nationality China
const MOREY = 'ofac_sdn:10278'; // LOGAN MOREY, Elvis Angus: DOB 28 Jul 1963

interface Hit {
  id: string;
  status: string;
  score: number;
  review: { comment: string | null; reviewed_at: string | null; reviewer_type: string | null };
  vendor: { hit_id: string; updated_by_monitoring_status: string | null; updated_fields?: string[] };
  entity: { aliases: string[]; birth_dates: string[] };
  previous_reviews?: { status: string; review: { comment: string | null }; reason: string }[];
}

const hitOf = (check: { data: { hits: Hit[] } }, hitId: string) =>
  check.data.hits.find((h) => h.vendor.hit_id === hitId) as Hit;

async function checkEvents(workspaceId: string, checkId: string) {
  const { ctx } = await getHarness();
  const rows = await ctx.db
    .selectFrom('events')
    .select(['type', 'payload'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('seq')
    .execute();
  return rows
    .filter((r) => r.type.startsWith('Check.'))
    .filter((r) => (r.payload as { check: { id: string } }).check.id === checkId)
    .map((r) => r.type);
}

/** Screens the individual, decides every hit (`decide` picks the action per hit) and reviews the check. */
async function decided(
  api: Client,
  individual: Record<string, unknown>,
  decide: (hitId: string) => { action: 'confirm' | 'ignore'; comment: string },
  checkAction: 'approve' | 'reject',
) {
  const created = await api.post('/v1/cases', {
    name: 'Monitoring decisions',
    companies: [{ name: 'Acme Widgets SAS', country: 'FR' }],
    individuals: [{ relations: [{ roles: ['legal_representative'] }], ...individual }],
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const res = await api.post('/v1/checks/aml', { individual_id: created.body.individuals[0].id });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const check = await eventually(async () => {
    const r = (await api.get(`/v1/checks/aml/${res.body.id}`)).body;
    return r.status !== 'processing' ? r : undefined;
  });
  assert.equal(check.status, 'need_review');
  // one request per decision (a common name has many hits: one request each was slow on a busy machine)
  const groups = new Map<string, { action: string; comment: string; hit_ids: string[] }>();
  for (const hit of check.data.hits as Hit[]) {
    const { action, comment } = decide(hit.vendor.hit_id);
    const group = groups.get(`${action}:${comment}`) ?? { action, comment, hit_ids: [] };
    group.hit_ids.push(hit.id);
    groups.set(`${action}:${comment}`, group);
  }
  for (const body of groups.values()) {
    const r = await api.patch(`/v1/checks/aml/${check.id}/hits/review`, body);
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  const reviewed = await api.patch(`/v1/checks/aml/${check.id}/review`, { action: checkAction });
  assert.equal(reviewed.status, 200, JSON.stringify(reviewed.body));
  const monitored = await api.patch(`/v1/checks/aml/${check.id}/monitoring`, { is_monitored: true });
  assert.equal(monitored.status, 200);
  return monitored.body;
}

before(async () => {
  const { ctx } = await getHarness();
  await eventually(async () => ctx.screening?.available, 120_000);
});

describe('aml monitoring and decided hits', () => {
  // three checks screened, decided and re-screened: minutes on a busy machine (not a wait on timing)
  test('a cosmetic listing update keeps decisions; a false positive that now fits better is reviewed again', {
    timeout: 600_000,
  }, async () => {
    const { ctx } = await getHarness();
    const service = ctx.screening as ScreeningService;
    const api = await newWorkspace('aml-monitoring-decisions');
    const other = (_hitId: string) => ({ action: 'ignore' as const, comment: 'another person' });
    // A: the finding's walk: Li Fangwei confirmed ("same DOB"), the check rejected
    const a = await decided(
      api,
      { first_name: 'Fangwei', last_name: 'Li', birth_date: '1972-09-18', nationalities: ['CN'] },
      (hitId) => (hitId === LI ? { action: 'confirm', comment: 'same DOB' } : other(hitId)),
      'reject',
    );
    // B: a namesake born a year earlier, ignored ("born 1971, not 1972"): the list adds 1971 below
    const b = await decided(
      api,
      { first_name: 'Fangwei', last_name: 'Li', birth_date: '1971-09-18', nationalities: ['CN'] },
      (hitId) => (hitId === LI ? { action: 'ignore', comment: 'born 1971, not 1972' } : other(hitId)),
      'approve',
    );
    // C: ignored although it matches exactly; the listing only gains an alias that fits no better
    const c = await decided(
      api,
      {
        first_name: 'Elvis',
        middle_name: 'Angus',
        last_name: 'Logan Morey',
        birth_date: '1963-07-28',
        nationalities: ['BZ'],
      },
      other,
      'approve',
    );
    const bScoreBefore = hitOf(b, LI).score;
    assert.ok(bScoreBefore < 1, `B's hit is not exact: ${bScoreBefore}`);
    const eventsBefore = {
      a: await checkEvents(api.workspaceId, a.id),
      b: await checkEvents(api.workspaceId, b.id),
      c: await checkEvents(api.workspaceId, c.id),
    };

    // the new version: 11447 gains the alias LI, Fang Wei (an alt.csv row) and the birth date 1971;
    // 10278 gains an alias
    const original = await loadReferenceDirectory(SHARED_DATA_DIR);
    const modified: ListLoadResult[] = original.map((r) => {
      if (r.source !== 'ofac_sdn') return r;
      const entities = r.entities.map((e) => {
        if (e.id === '11447')
          return {
            ...e,
            aliases: [...e.aliases, { name: 'LI, Fang Wei', strength: 'strong' as const }],
            birth_dates: [...e.birth_dates, '1971-09-18'],
          };
        if (e.id === '10278')
          return { ...e, aliases: [...e.aliases, { name: 'MOREY, Elvis', strength: 'strong' as const }] };
        return e;
      });
      return { ...r, version: `${r.version}-decisions-test`, entities };
    });
    try {
      const report = await service.replace(modified);
      assert.equal(report.changed, true);
      const rescreened = async (id: string) =>
        eventually(async () => {
          const r = (await api.get(`/v1/checks/aml/${id}`)).body;
          return r.data.vendor.monitored_at ? r : undefined;
        });

      // A: still rejected, the confirmation and its comment kept, the hit marked updated
      const a2 = await rescreened(a.id);
      assert.equal(a2.status, 'rejected');
      assert.equal(a2.data.result, 'rejected');
      assert.equal(a2.data.match_status, 'true_positive');
      const aHit = hitOf(a2, LI);
      assert.equal(aHit.status, 'true_positive');
      assert.equal(aHit.review.comment, 'same DOB');
      assert.equal(aHit.review.reviewer_type, 'api');
      assert.equal(aHit.vendor.updated_by_monitoring_status, 'updated');
      assert.deepEqual(aHit.vendor.updated_fields, ['aliases', 'birth_dates']);
      assert.ok(aHit.entity.aliases.includes('LI, Fang Wei'));
      assert.equal(aHit.previous_reviews, undefined);
      assert.deepEqual(await checkEvents(api.workspaceId, a.id), eventsBefore.a);

      // B: the listing now has the namesake's birth date: the hit is to decide again
      const b2 = await eventually(async () => {
        const r = (await api.get(`/v1/checks/aml/${b.id}`)).body;
        return r.status === 'need_review' ? r : undefined;
      });
      assert.equal(b2.data.result, null);
      assert.equal(b2.data.match_status, 'potential_match');
      assert.equal(
        b2.data.review.comment,
        'Monitoring after a list version change: hits 0 new, 1 updated, 0 removed',
      );
      const bHit = hitOf(b2, LI);
      assert.equal(bHit.status, 'potential_match');
      assert.equal(bHit.review.reviewed_at, null);
      assert.ok(bHit.score > bScoreBefore);
      assert.equal(bHit.vendor.updated_by_monitoring_status, 'updated');
      assert.equal(bHit.previous_reviews?.length, 1);
      assert.equal(bHit.previous_reviews?.[0].status, 'false_positive');
      assert.equal(bHit.previous_reviews?.[0].review.comment, 'born 1971, not 1972');
      assert.match(bHit.previous_reviews?.[0].reason ?? '', /birth_dates/);
      assert.deepEqual(await checkEvents(api.workspaceId, b.id), [...eventsBefore.b, 'Check.ReviewNeeded']);

      // C: an alias that fits no better: still approved, still ignored, the update recorded
      const c2 = await rescreened(c.id);
      assert.equal(c2.status, 'approved');
      assert.equal(c2.data.match_status, 'false_positive');
      const cHit = hitOf(c2, MOREY);
      assert.equal(cHit.status, 'false_positive');
      assert.equal(cHit.review.comment, 'another person');
      assert.equal(cHit.vendor.updated_by_monitoring_status, 'updated');
      assert.deepEqual(cHit.vendor.updated_fields, ['aliases']);
      assert.deepEqual(await checkEvents(api.workspaceId, c.id), eventsBefore.c);
    } finally {
      for (const chk of [a, b, c])
        await api.patch(`/v1/checks/aml/${chk.id}/monitoring`, { is_monitored: false });
      await service.load();
    }
  });
});
