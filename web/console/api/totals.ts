/**
 * A count as the console shows it: past 1,000 matching items the API's total is the database's
 * estimate (`pagination.count_estimated`, or a key in GET /v1/case-counts' `estimated`), shown as
 * `≈1234` so nobody reads it as exact.
 */
export function shownTotal(count: number, estimated: boolean | undefined): string | number {
  return estimated ? `≈${count}` : count;
}
