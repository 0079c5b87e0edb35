/**
 * JSON with every object's keys sorted: two equal values give one string whatever their key order
 * (a jsonb column gives keys back in its own order; a client may send `{"b":1,"a":2}` on a retry of
 * `{"a":2,"b":1}`). Otherwise as JSON.stringify: `toJSON` is used, undefined members are left out.
 */
export function canonicalJson(value: unknown): string {
  if (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  ) {
    return canonicalJson((value as { toJSON: () => unknown }).toJSON());
  }
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    return `[${value.map((v) => (v === undefined || typeof v === 'function' ? 'null' : canonicalJson(v))).join(',')}]`;
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined && typeof obj[k] !== 'function')
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}
