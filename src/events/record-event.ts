import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connect.ts';

export interface DomainEvent {
  type: string;
  sub_event?: string | null;
  case_id?: string | null;
  /** The entity the event is about, keyed by its kind (`case`, `company`, `check`, ...). */
  payload: Record<string, unknown>;
}

/**
 * Appends events to the outbox table. Always called with the transaction that makes the change,
 * so an event exists exactly when its change committed, in commit order (`seq`).
 */
export async function recordEvents(trx: Db, workspaceId: string, events: DomainEvent[]): Promise<void> {
  if (!events.length) return;
  await trx
    .insertInto('events')
    .values(
      events.map((e) => ({
        id: randomUUID(),
        workspace_id: workspaceId,
        case_id: e.case_id ?? null,
        type: e.type,
        sub_event: e.sub_event ?? null,
        payload: JSON.stringify(e.payload),
      })),
    )
    .execute();
}
