/**
 * The size limit a route's schema sets for one value of a request, found when strict-input.ts
 * refuses an array or object past its shared cap before validation: the answer then states the
 * field's own limit ("individuals must have at most 500 items"), not the cap's 1,000, which the
 * schema never allowed. Runs on refusals only, so the request's schema is walked lazily here.
 */

type Schema = Record<string, unknown>;
export type Trail = readonly (string | number)[];

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A schema and the branches of its unions and intersections, flattened. */
function branches(s: unknown, out: Schema[] = []): Schema[] {
  if (!isSchema(s)) return out;
  out.push(s);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = s[key];
    if (Array.isArray(list)) for (const b of list) branches(b, out);
  }
  return out;
}

/** The schemas a value at `key` of a value of schema `s` may have. */
function children(s: Schema, key: string | number): unknown[] {
  if (typeof key === 'number') {
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems[key] : undefined;
    return [prefix ?? s.items];
  }
  const properties = s.properties as Schema | undefined;
  if (isSchema(properties) && Object.hasOwn(properties, key)) return [properties[key]];
  const found: unknown[] = [];
  if (isSchema(s.patternProperties)) {
    for (const [pattern, sub] of Object.entries(s.patternProperties)) {
      if (new RegExp(pattern, 'u').test(key)) found.push(sub);
    }
  }
  if (found.length === 0 && isSchema(s.additionalProperties)) found.push(s.additionalProperties);
  return found;
}

/**
 * The most items (`array`) or fields (`object`) the schema allows the value at `trail`: its
 * `maxItems` or `maxProperties`, or for an object of declared fields only, their number. Undefined
 * when the schema says nothing of that value; the largest of a union's branches.
 */
export function declaredLimit(root: unknown, trail: Trail, kind: 'array' | 'object'): number | undefined {
  let nodes = branches(root);
  for (const key of trail) {
    const next: Schema[] = [];
    for (const n of nodes) for (const c of children(n, key)) branches(c, next);
    nodes = next;
  }
  const limits: number[] = [];
  for (const n of nodes) {
    if (kind === 'array' && typeof n.maxItems === 'number') limits.push(n.maxItems);
    if (kind === 'object') {
      if (typeof n.maxProperties === 'number') limits.push(n.maxProperties);
      else if (n.additionalProperties === false && !n.patternProperties && isSchema(n.properties))
        limits.push(Object.keys(n.properties).length);
    }
  }
  return limits.length ? Math.max(...limits) : undefined;
}
