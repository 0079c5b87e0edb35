/** ISO 8601 (UTC, milliseconds) from a driver Date or a JSON-aggregated timestamp string. */
export function iso(v: Date | string): string {
  return (v instanceof Date ? v : new Date(v)).toISOString();
}
export function isoOrNull(v: Date | string | null | undefined): string | null {
  return v == null ? null : iso(v);
}
