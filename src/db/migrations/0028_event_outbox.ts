import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// The webhook outbox moves out of the events table (issue 17). An event used to wait for dispatch as
// `events.dispatched_at is null`, and dispatching it updated its row: a new version of a ~1 kB row
// and an entry in each of the table's eight indexes, for every event, which cost about a fifth of
// PostgreSQL's work per case created. Now the transaction that records an event also inserts its
// `seq` (and workspace) into event_outbox, and the dispatcher deletes those narrow rows in the
// transaction that builds the deliveries: events are written once and never updated. No foreign
// key: an outbox row whose event is gone (its workspace was deleted) is simply dropped.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `create table event_outbox (
       seq bigint primary key,
       workspace_id uuid not null
     );
     insert into event_outbox (seq, workspace_id)
       select seq, workspace_id from events where dispatched_at is null;
     drop index events_undispatched;
     alter table events drop column dispatched_at;`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `alter table events add column dispatched_at timestamptz;
     update events set dispatched_at = now() where seq not in (select seq from event_outbox);
     create index events_undispatched on events(seq) where dispatched_at is null;
     drop table event_outbox;`,
  );
}
