import type { CheckRow } from '../../db/schema.ts';

/** One entry of a check's `history` column: a finished attempt. */
export interface AttemptHistoryEntry {
  attempt: number;
  status: string;
  data: Record<string, unknown>;
  ended_at: string;
}

/**
 * The outcome fields that open a new attempt on the same check (add_files after rejected or
 * expired): the finished attempt's status and data move to `history`, the attempt number goes up;
 * applyOutcome then emits Check.Started again.
 */
export function nextAttempt(check: CheckRow): { attempt: number; history: unknown[] } {
  const finished: AttemptHistoryEntry = {
    attempt: check.attempt,
    status: check.status,
    data: check.data as Record<string, unknown>,
    // when the attempt finished (its rejection or expiry, the check's last change), not now: case
    // documents date its files with it, and they must not look newer than the attempt replacing them
    ended_at: new Date(check.updated_at).toISOString(),
  };
  return { attempt: check.attempt + 1, history: [...((check.history as unknown[]) ?? []), finished] };
}
