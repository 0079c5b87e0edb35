/**
 * A refusal of the entity forms said under the field it names (`birth_date must not be in the
 * future...` under *Birth date*), as the new-case form does; one naming no field of the form is
 * said after the fields (ActFormDialog).
 */
import { createContext, useContext } from 'react';
import { ActFailed } from '../ActFailed.tsx';

/** The form's refusal (the server's message), for the fields to say under themselves. */
export const RefusalContext = createContext<string | null>(null);

/** The field a refusal starts with (`birth_date`, `address.country`), else null. */
export function refusedPath(error: string | null | undefined): string | null {
  return error?.match(/^([\w.[\]]+?):? /)?.[1] ?? null;
}

/** Under a field: the form's refusal, in the console's words, when it names one of `paths`. */
export function FieldRefusal({ paths }: { paths: readonly string[] }) {
  const error = useContext(RefusalContext);
  return error && paths.includes(refusedPath(error) ?? '') ? <ActFailed error={error} /> : null;
}
