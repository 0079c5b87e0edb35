/** "00".."99" and "000".."999": the fields of an ISO timestamp, looked up instead of padded. */
const TWO = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/**
 * ISO 8601 (UTC, milliseconds) from a driver Date or a JSON-aggregated timestamp string: what
 * `Date.prototype.toISOString` gives, written here for years 0 to 9999 because V8's builds it with
 * a printf in C++ at about twice the cost, and a list page formats sixty of them
 * (docs/performance.md, "Lists"). Other years, and an invalid date (which throws), go to the builtin.
 */
export function iso(v: Date | string): string {
  const d = v instanceof Date ? v : new Date(v);
  const year = d.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return d.toISOString();
  return (
    (year >= 1000 ? String(year) : String(year).padStart(4, '0')) +
    '-' +
    TWO[d.getUTCMonth() + 1] +
    '-' +
    TWO[d.getUTCDate()] +
    'T' +
    TWO[d.getUTCHours()] +
    ':' +
    TWO[d.getUTCMinutes()] +
    ':' +
    TWO[d.getUTCSeconds()] +
    '.' +
    THREE[d.getUTCMilliseconds()] +
    'Z'
  );
}
export function isoOrNull(v: Date | string | null | undefined): string | null {
  return v == null ? null : iso(v);
}

/** A `yyyy-MM-dd` day that exists (2024-02-29 does; 2023-02-29, 1984-02-30 and 0000-00-00 do not). */
export function validDay(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
}

const DATE_TIME_PARTS = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):?(\d{2}))?$/;

/**
 * An ISO 8601 date-time whose day and time exist: `2024-02-30T00:00:00Z` or `…T25:00:00Z` are not
 * (Date.parse rolled the first over into March and took the second). The zone is optional.
 */
export function validDateTime(v: string): boolean {
  const m = DATE_TIME_PARTS.exec(v);
  if (!m || !validDay(m[1])) return false;
  const [hh, mm, ss] = [m[2], m[3], m[4]].map(Number);
  if (hh > 23 || mm > 59 || ss > 59) return false;
  if (m[7] !== undefined && (Number(m[7]) > 23 || Number(m[8]) > 59)) return false;
  return !Number.isNaN(Date.parse(v));
}
