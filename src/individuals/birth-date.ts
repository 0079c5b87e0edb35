import type { ErrorDetail } from '../http/errors.ts';

/**
 * A birth date after today is a typo (2999 for 1999), not a person: refused, naming the field. One
 * day of slack: "today" where the person was born may already be tomorrow in UTC.
 */
export function birthDateProblem(value: string | null | undefined, path: string): ErrorDetail | null {
  if (!value) return null;
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  if (value <= tomorrow) return null;
  return { path, message: `${path} must not be in the future: it is ${value}` };
}
