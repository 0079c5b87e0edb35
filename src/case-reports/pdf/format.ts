/** Small value formatters shared by the report's sections. */

type Obj = Record<string, unknown>;
export const obj = (v: unknown): Obj | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null;

/** A value as report text: `-` for nothing, lists joined, long values cut. */
export function show(v: unknown, max = 200): string {
  if (v === null || v === undefined || v === '') return '-';
  if (Array.isArray(v)) return v.length ? v.map((x) => show(x, max)).join(', ') : '-';
  if (typeof v === 'object') return show(JSON.stringify(v), max);
  const s = String(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** `legal_representative` → `legal representative`. */
export const words = (v: unknown): string => show(v).replaceAll('_', ' ');

export const percent = (v: number | null | undefined): string | null => (v == null ? null : `${v}%`);

/** Joined non-empty parts. */
export const join = (parts: (string | null | undefined | false)[], sep = ', '): string =>
  parts.filter((p): p is string => typeof p === 'string' && p.length > 0).join(sep);

export function addressText(a: unknown): string {
  const o = obj(a);
  if (!o) return '-';
  const s = (v: unknown) => (typeof v === 'string' ? v : null);
  const city = join([s(o.postal_code), s(o.city)], ' ');
  return join([s(o.street_address), s(o.street_address_2), city, s(o.state), s(o.country)]) || '-';
}

/** Data keys (as `words` spells them) whose values are credentials: links that log the person in. */
const SECRET_KEYS = /verification url|token|signature link/i;

/** An instant as the API writes it (`2026-12-01T09:39:55.123Z`); a plain date is not one. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * How a list item is named in a row: its title or name (a source, a screened list with its
 * version), else its position. "4 items" told the reader nothing of which sources or lists.
 */
function itemName(item: unknown, i: number): string {
  const o = obj(item);
  if (!o) return String(item);
  const name = [o.title, o.name, o.label, o.source, o.type].find((x) => typeof x === 'string' && x);
  if (!name) return `#${i + 1}`;
  return typeof o.version === 'string' && o.version ? `${name} (${o.version})` : String(name);
}

/**
 * Nested data fields a reader of the report has no use for: the API's own paths to the check
 * (`vendor.search_url`, `vendor.case_url`), a second copy of the search id, the individual's id and
 * the check's start (shown as Started). They took the row budget before what matters (an aml
 * check's match status and screened subject were left out).
 */
const NOISE = new Set([
  'vendor.case_url',
  'vendor.search_url',
  'vendor.search_ref',
  'vendor.customer_id',
  'vendor.created_at',
]);

/** Labels that read better than the field's name in words ("Vendor is search monitored"). */
const LABELS: Record<string, string> = {
  'vendor.is_search_monitored': 'Monitored',
  'vendor.screened_at': 'Screened at',
  'vendor.list_versions': 'Lists screened',
  match_status: 'Match status',
  hits_list_types: 'Lists with hits',
};

/**
 * The key facts of a check's `data`, as label/value rows: scalar fields of `information` and of the
 * data itself (result, review and settings are shown apart, and so are hits, matches and detailed
 * results: see section-checks), then its objects one level down, lists named item by item, instants
 * written by `time` (the report's zone); at most `limit` rows.
 */
export function keyData(
  data: unknown,
  time: (v: string) => string = (v) => v,
  limit = 10,
): [string, string][] {
  const d = obj(data) ?? {};
  const rows: [string, string][] = [];
  // an eKYC's fraud score is the key fact a reader needs (a very high score on an approved identity),
  // and it sits two levels down, where the rows below look no deeper: first, always
  const fraud = obj(obj(d.fraud_signals)?.fraud_score);
  if (fraud && typeof fraud.score === 'number') {
    const labels = Array.isArray(fraud.labels) ? fraud.labels.map(words) : [];
    rows.push([
      'Fraud score',
      `${fraud.score} (${words(fraud.band)})${labels.length ? `: ${labels.join(', ')}` : ''}`,
    ]);
  }
  // rows past the limit are counted, and the count said: a reader must know something was left out
  let left = 0;
  const add = (key: string, v: unknown) => {
    if (v === null || v === undefined || v === '') return;
    if (rows.length >= limit) {
      if (!SECRET_KEYS.test(key) && (typeof v !== 'object' || Array.isArray(v))) left++;
      return;
    }
    // a link that opens the portal as the person (id_verification's verification_url carries its
    // token) is a credential: a report that is downloaded and passed around never shows it
    if (SECRET_KEYS.test(key)) return;
    const label = key.charAt(0).toUpperCase() + key.slice(1);
    if (Array.isArray(v)) {
      if (v.length && v.every((x) => typeof x !== 'object')) rows.push([label, show(v, 120)]);
      else if (v.length) rows.push([label, show(v.map(itemName).join(', '), 240)]);
      return;
    }
    if (typeof v === 'object') return;
    rows.push([label, typeof v === 'string' && INSTANT.test(v) ? time(v) : show(v, 120)]);
  };
  const skip = new Set([
    'review',
    'result',
    'settings',
    'information',
    'hits',
    'matches',
    'detailed_results',
  ]);
  for (const [k, v] of Object.entries(obj(d.information) ?? {})) {
    const nested = obj(v);
    if (nested) for (const [k2, v2] of Object.entries(nested)) add(`${words(k)} ${words(k2)}`, v2);
    else add(words(k), v);
  }
  // the data's own fields first, its objects (the provider's block, the subject) after them
  for (const [k, v] of Object.entries(d)) {
    if (skip.has(k) || obj(v)) continue;
    // a code in words, as the headings write statuses (true_positive → true positive)
    add(LABELS[k] ?? words(k), k === 'match_status' && typeof v === 'string' ? words(v) : v);
  }
  for (const [k, v] of Object.entries(d)) {
    const nested = obj(v);
    if (skip.has(k) || !nested) continue;
    for (const [k2, v2] of Object.entries(nested)) {
      const path = `${k}.${k2}`;
      if (!NOISE.has(path)) add(LABELS[path] ?? `${words(k)} ${words(k2)}`, v2);
    }
  }
  if (left)
    rows.push(['More', `${left} more field${left === 1 ? '' : 's'} of its data: read the check in the API`]);
  return rows;
}

/** A check's status as the report says it everywhere (`to review`, not `need review`). */
const CHECK_STATUS_WORDS: Record<string, string> = {
  need_review: 'to review',
  in_progress: 'waiting for data',
};
export const checkStatusWords = (status: unknown): string =>
  (typeof status === 'string' && CHECK_STATUS_WORDS[status]) || words(status);
