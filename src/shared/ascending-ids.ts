import { randomUUID } from 'node:crypto';

/**
 * Random uuids in ascending order (lower-case hex sorts as the database sorts uuids). Rows written
 * together share one created_at and reads order by (created_at, id): ids drawn this way make them
 * read back in the order the request gave them, not in the random order of their uuids.
 */
export function ascendingIds(n: number): string[] {
  return Array.from({ length: n }, () => randomUUID()).sort();
}
