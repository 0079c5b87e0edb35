import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pg from 'pg';
import { eventually, getHarness, newWorkspace } from './helpers/harness.ts';
import { startReceiver } from './helpers/receiver.ts';

/**
 * A webhook set offline while the dispatcher fans an event out to it: the dispatcher read the
 * webhook `online` before the change committed and made a `pending` delivery after, which the
 * change's parking never saw (and the other way round, a delivery kept `pending_offline` for a
 * webhook just set online, until it went offline and online again). Made to overlap for certain: a
 * connection of the test holds the webhook's row lock, as PATCH /v1/webhooks/{id} does, until the
 * dispatcher waits for it (PostgreSQL's view of its backends, no timing). PostgreSQL only: the
 * embedded database runs one transaction at a time.
 */
const url = process.env.DATABASE_URL;

describe('webhook status changed during a dispatch', { skip: !url && 'PostgreSQL only' }, () => {
  test('set offline while an event is fanned out: its delivery is kept pending_offline, nothing is sent', async () => {
    const receiver = await startReceiver();
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      const api = await newWorkspace();
      const created = await api.post('/v1/webhooks', {
        url: receiver.url('/race'),
        events: ['Case.Created'],
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const webhookId = created.body.id;
      await holder.query('begin');
      // what update-webhook.ts does when it sets a webhook offline: the row, then the parking
      await holder.query(`update webhooks set status = 'offline', updated_at = now() where id = $1`, [
        webhookId,
      ]);
      const c = await api.post('/v1/cases', { name: 'race', companies: [{ name: 'Race Co' }] });
      assert.equal(c.status, 201, JSON.stringify(c.body));
      const { rows: me } = await holder.query('select pg_backend_pid() as pid');
      await eventually(async () => {
        const { rows } = await holder.query(
          `select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid
             where not l.granted and a.datname = current_database() and l.pid <> $1
               and a.query ilike '%from "webhooks"%'`,
          [me[0].pid],
        );
        return rows[0].n > 0;
      }, 30_000).catch(() => assert.fail('the dispatcher did not wait for the webhook being changed'));
      await holder.query(
        `update webhook_deliveries set status = 'pending_offline', updated_at = now()
         where webhook_id = $1 and status = 'pending'`,
        [webhookId],
      );
      await holder.query('commit');
      const { ctx } = await getHarness();
      const deliveries = await eventually(async () => {
        const rows = await ctx.db
          .selectFrom('webhook_deliveries')
          .select(['status', 'case_id'])
          .where('webhook_id', '=', webhookId)
          .execute();
        return rows.length ? rows : undefined;
      });
      assert.deepEqual(deliveries, [{ status: 'pending_offline', case_id: c.body.id }]);
      const logs = await api.get('/v1/webhook-logs?status=pending_offline');
      assert.equal(logs.body.pagination.count, 1);
      assert.equal(receiver.deliveries('/race').length, 0);
    } finally {
      await holder.query('rollback').catch(() => {});
      await holder.end();
      await receiver.stop();
    }
  });
});
