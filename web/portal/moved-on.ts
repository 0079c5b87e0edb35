/**
 * A step that moved on while the page showed it (submitted from another tab, approved or removed by
 * the operator): the server refuses the change with a 400 naming no field (or a 404 once the step is
 * gone), in English. The page says it in its own language and reads the session again, so the card
 * shows where the step stands instead of a form that can no longer be used.
 */
import { HttpError } from '../shared/http.ts';

export function movedOn(err: unknown): boolean {
  if (!(err instanceof HttpError)) return false;
  if (err.status === 404) return true;
  const details = (err.body as { details?: unknown[] } | null)?.details;
  return err.status === 400 && !details?.length;
}
