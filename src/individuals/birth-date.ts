import type { ErrorDetail } from '../http/errors.ts';

/** No one alive was born before it (the oldest person ever recorded was born in 1875 and died in 1997). */
export const EARLIEST_BIRTH_DATE = '1900-01-01';

/**
 * A birth date after today is a typo (2999 for 1999), not a person, and so is one before 1900 (0000
 * or 0001 for an unknown year): refused, naming the field. One day of slack after today: "today"
 * where the person was born may already be tomorrow in UTC. (A registry import keeps what the
 * registry says: this checks what a request gives.)
 */
export function birthDateProblem(value: string | null | undefined, path: string): ErrorDetail | null {
  if (!value) return null;
  if (value < EARLIEST_BIRTH_DATE)
    return { path, message: `${path} must be on or after ${EARLIEST_BIRTH_DATE}: it is ${value}` };
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  if (value <= tomorrow) return null;
  return { path, message: `${path} must not be in the future: it is ${value}` };
}
