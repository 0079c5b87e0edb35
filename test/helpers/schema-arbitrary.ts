/**
 * fast-check generators built from the JSON schemas of the served OpenAPI document: values a
 * schema accepts (`validArb`) and values it should refuse (`invalidArb`). Used by the fuzz drill,
 * its short run in the suite and the round-trip test, so that what they send follows the schemas
 * actually served, not a hand-written copy of them.
 */
import fc from 'fast-check';
import { COUNTRY_CODES } from '../../src/shared/countries.ts';

export type Schema = Record<string, any>;

/** Replaces every `$ref` to `#/components/schemas/...` with its target (the document has no cycles). */
export function deref(schema: unknown, doc: Schema, seen = new Map<unknown, unknown>()): Schema {
  if (Array.isArray(schema)) return schema.map((s) => deref(s, doc, seen)) as never;
  if (!schema || typeof schema !== 'object') return schema as Schema;
  const cached = seen.get(schema);
  if (cached) return cached as Schema;
  const node = schema as Schema;
  if (typeof node.$ref === 'string') {
    const target = node.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((o: Schema | undefined, k: string) => o?.[k], doc);
    if (!target) throw new Error(`unresolved $ref ${node.$ref}`);
    return deref(target, doc, seen);
  }
  const out: Schema = {};
  seen.set(schema, out);
  for (const [k, v] of Object.entries(node)) out[k] = k === 'enum' || k === 'const' ? v : deref(v, doc, seen);
  return out;
}

// Characters of generated text: mostly ASCII, some accented, CJK and astral (two UTF-16 units)
// characters, so that length limits counted in code points and byte-oriented code both get tested.
const textChar = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.constantFrom('é', 'ß', 'Ω', 'ж', '日', '本', '€', '😀', '𝔘', '\t', '\n') },
);

function text(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit: textChar, minLength, maxLength });
}

const COUNTRIES = [...COUNTRY_CODES];
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

const dateArb = fc
  .record({
    y: fc.integer({ min: 1900, max: 2099 }),
    m: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 28 }),
  })
  .map(({ y, m, d }) => `${y}-${pad(m)}-${pad(d)}`);
const dateTimeArb = fc
  .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
  .map((d) => d.toISOString());
const emailArb = fc
  .tuple(
    fc.stringMatching(/^[a-z0-9]{1,12}(\.[a-z0-9]{1,6})?$/),
    fc.stringMatching(/^[a-z0-9]{1,12}$/),
    fc.constantFrom('com', 'fr', 'io', 'org'),
  )
  .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);
const tagLabelArb = text(1, 40)
  .map((s) => s.replace(/[,;:|/\\]/g, '-'))
  .filter((s) => s.trim().length > 0);

/** Generators of the formats our schemas use (src/http/schema-formats.ts and ajv-formats). */
const FORMATS: Record<string, fc.Arbitrary<string>> = {
  uuid: fc.uuid(),
  date: dateArb,
  'date-time': dateTimeArb,
  email: emailArb,
  uri: fc.webUrl(),
  'alpha-2': fc.constantFrom(...COUNTRIES),
  'e.164': fc.stringMatching(/^\+[1-9]\d{6,14}$/),
  'tag-label': tagLabelArb,
};

function typesOf(schema: Schema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties || schema.additionalProperties || schema.patternProperties) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

function lengthOk(s: string, schema: Schema): boolean {
  const n = [...s].length;
  return n >= (schema.minLength ?? 0) && n <= (schema.maxLength ?? Number.POSITIVE_INFINITY);
}

function validString(schema: Schema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Math.max(min + 40, 40);
  const fmt = schema.format && FORMATS[schema.format];
  if (fmt) return fmt.filter((s: string) => lengthOk(s, schema));
  if (schema.pattern)
    return fc.stringMatching(new RegExp(schema.pattern)).filter((s: string) => lengthOk(s, schema));
  // mostly short values, sometimes right at the limit
  return fc.oneof(
    { weight: 6, arbitrary: text(min, Math.min(max, min + 30)) },
    { weight: 1, arbitrary: text(max, max) },
  );
}

function validNumber(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  let min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum : -1e6);
  let max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum : 1e6);
  if (integer) {
    min = Math.ceil(min + (schema.exclusiveMinimum !== undefined && schema.minimum === undefined ? 1 : 0));
    max = Math.floor(max - (schema.exclusiveMaximum !== undefined && schema.maximum === undefined ? 1 : 0));
    const arb = fc.integer({ min, max });
    return schema.multipleOf ? arb.map((n) => Math.round(n / schema.multipleOf) * schema.multipleOf) : arb;
  }
  const arb = fc
    .double({ min, max, noNaN: true, noDefaultInfinity: true })
    .filter(
      (n) =>
        (schema.exclusiveMinimum === undefined || n > schema.exclusiveMinimum) &&
        (schema.exclusiveMaximum === undefined || n < schema.exclusiveMaximum),
    )
    .map((n) => (Object.is(n, -0) ? 0 : n));
  return fc.oneof(
    arb,
    fc.integer({ min: Math.ceil(min), max: Math.floor(max) }).filter((n) => n >= min && n <= max),
  );
}

function validObject(schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  const props: Record<string, Schema> = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, s] of Object.entries(props)) model[k] = validArb(s);
  // a required property without a schema (should not happen) still gets some value
  for (const k of required) model[k] ??= fc.string();
  const fixed = fc.record(model, { requiredKeys: [...required] });
  const extras: fc.Arbitrary<Record<string, unknown>>[] = [];
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
    extras.push(
      fc.dictionary(
        fc.stringMatching(/^[a-z][a-z0-9_]{0,19}$/).filter((k) => !(k in props)),
        validArb(schema.additionalProperties),
        { maxKeys: 4 },
      ),
    );
  for (const [pattern, s] of Object.entries<Schema>(schema.patternProperties ?? {}))
    extras.push(fc.dictionary(fc.stringMatching(new RegExp(pattern)), validArb(s), { maxKeys: 3 }));
  const all = extras.length
    ? fc.tuple(fixed, ...extras).map(([f, ...e]) => Object.assign({}, ...e, f) as Record<string, unknown>)
    : fixed;
  const minP = schema.minProperties ?? 0;
  const maxP = schema.maxProperties ?? Number.POSITIVE_INFINITY;
  return minP > 0 || maxP < Number.POSITIVE_INFINITY
    ? all.filter((o) => Object.keys(o).length >= minP && Object.keys(o).length <= maxP)
    : all;
}

function validArray(schema: Schema): fc.Arbitrary<unknown[]> {
  const min = schema.minItems ?? 0;
  const max = Math.min(schema.maxItems ?? min + 4, min + 4);
  const items = schema.items && typeof schema.items === 'object' ? validArb(schema.items) : fc.string();
  return schema.uniqueItems
    ? fc.uniqueArray(items, { minLength: min, maxLength: max, selector: (v) => JSON.stringify(v) })
    : fc.array(items, { minLength: min, maxLength: max });
}

const anyJson = fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean(), fc.constant(null));

const validCache = new WeakMap<Schema, fc.Arbitrary<unknown>>();

/** Values the schema accepts. */
export function validArb(schema: Schema): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object') return anyJson;
  const cached = validCache.get(schema);
  if (cached) return cached;
  const arb = buildValid(schema);
  validCache.set(schema, arb);
  return arb;
}

function buildValid(schema: Schema): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) return fc.oneof(...branches.map((b: Schema) => validArb(b)));
  if (Array.isArray(schema.allOf)) return validArb(mergeAllOf(schema));
  const types = typesOf(schema);
  if (types.length === 0) return anyJson;
  return fc.oneof(
    ...types.map((t): fc.Arbitrary<unknown> => {
      switch (t) {
        case 'string':
          return validString(schema);
        case 'integer':
          return validNumber(schema, true);
        case 'number':
          return validNumber(schema, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array':
          return validArray(schema);
        default:
          return validObject(schema);
      }
    }),
  );
}

function mergeAllOf(schema: Schema): Schema {
  const merged: Schema = {
    ...schema,
    allOf: undefined,
    properties: { ...schema.properties },
    required: [...(schema.required ?? [])],
  };
  for (const part of schema.allOf as Schema[]) {
    const p = part.allOf ? mergeAllOf(part) : part;
    Object.assign(merged.properties, p.properties ?? {});
    merged.required.push(...(p.required ?? []));
    for (const [k, v] of Object.entries(p)) if (!['properties', 'required'].includes(k)) merged[k] ??= v;
  }
  delete merged.allOf;
  return merged;
}

// ---------- invalid values ----------

/** Strings nothing should accept as text: NUL, lone surrogates, control characters. */
export const HOSTILE_STRINGS = ['a\u0000b', '\u0000', 'x\ud800', '\udc00y', '\ud83d', 'a\u0000\ud800'];

const BAD_FORMAT: Record<string, string[]> = {
  uuid: [
    'not-a-uuid',
    '00000000-0000-0000-0000-00000000000',
    'g0000000-0000-0000-0000-000000000000',
    '%00',
    '',
  ],
  date: ['2023-02-30', '2023-13-01', '20230101', '2023-1-1', '0000-00-00', '2023-01-01T00:00:00Z'],
  'date-time': ['2023-01-01', '2023-01-01T25:00:00Z', 'yesterday', '2023-01-01T00:00:00', ''],
  email: ['no-at-sign', '@example.com', 'a@', 'a b@c.d', 'a@b@c'],
  uri: ['not a url', 'http//x', '::'],
  'alpha-2': ['XX', 'fr', 'FRA', 'F', '1A', ''],
  'e.164': ['0612345678', '+0123456789', '+33 6 12 34 56 78', '+1', 'phone'],
  'tag-label': ['a,b', '  ', 'x/y', 'a|b', 'a;b', 'a:b', 'a\\b'],
};

/** Nested arrays `depth` deep, built iteratively (a recursive builder would itself overflow). */
export function deepNesting(depth: number): unknown {
  let v: unknown = 'deep';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

const wrongTypeValues: Record<string, unknown[]> = {
  string: ['text', ''],
  number: [1.5, 0, -1],
  integer: [7],
  boolean: [true, false],
  null: [null],
  array: [[], ['x'], [1, 2]],
  object: [{}, { a: 1 }],
};

function wrongType(schema: Schema): fc.Arbitrary<unknown> {
  const allowed = new Set(typesOf(schema));
  if (allowed.has('number')) allowed.add('integer');
  if (allowed.size === 0) return fc.constant(undefined);
  const values = Object.entries(wrongTypeValues)
    .filter(([t]) => !allowed.has(t))
    .flatMap(([, vs]) => vs);
  return fc.constantFrom(...values);
}

function invalidString(schema: Schema): fc.Arbitrary<unknown>[] {
  const out: fc.Arbitrary<unknown>[] = [fc.constantFrom(...HOSTILE_STRINGS)];
  const max = schema.maxLength;
  out.push(
    fc.constantFrom(
      max !== undefined ? 'x'.repeat(max + 1) : 'x'.repeat(100_000),
      'é'.repeat((max ?? 10_000) + 1),
    ),
  );
  if (schema.minLength) out.push(fc.constant('x'.repeat(schema.minLength - 1)));
  if (schema.format && BAD_FORMAT[schema.format]) out.push(fc.constantFrom(...BAD_FORMAT[schema.format]));
  if (schema.pattern) out.push(fc.constantFrom('!!', ' leading space', '\u0000', '\n'));
  return out;
}

function invalidNumber(schema: Schema, integer: boolean): fc.Arbitrary<unknown>[] {
  const out: unknown[] = [1e308, -1e308, 2 ** 64, -(2 ** 63) - 1e4, Number.MAX_SAFE_INTEGER + 2];
  if (schema.minimum !== undefined) out.push(schema.minimum - 1);
  if (schema.exclusiveMinimum !== undefined) out.push(schema.exclusiveMinimum);
  if (schema.maximum !== undefined) out.push(schema.maximum + 1);
  if (schema.exclusiveMaximum !== undefined) out.push(schema.exclusiveMaximum);
  if (integer) out.push(1.5, '1', '99999999999999999999');
  return [fc.constantFrom(...out)];
}

function invalidObject(schema: Schema): fc.Arbitrary<unknown>[] {
  const props: Record<string, Schema> = schema.properties ?? {};
  const valid = validObject(schema);
  const out: fc.Arbitrary<unknown>[] = [];
  const required: string[] = schema.required ?? [];
  if (required.length)
    out.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([o, k]) => {
        const copy = { ...o };
        delete copy[k];
        return copy;
      }),
    );
  if (schema.additionalProperties === false || !schema.additionalProperties)
    out.push(
      fc
        .tuple(
          valid,
          fc.constantFrom('__fuzz', 'id', 'workspace_id', 'created_at', '__proto__', 'constructor'),
        )
        // a computed key makes even `__proto__` an own property, sent as such
        .map(([o, k]) => ({ [k]: 'x', ...o })),
    );
  const keys = Object.keys(props);
  if (keys.length)
    out.push(
      fc
        .constantFrom(...keys)
        .chain((k) => fc.tuple(valid, fc.constant(k), invalidArb(props[k])))
        .map(([o, k, bad]) => ({ ...o, [k]: bad })),
    );
  out.push(
    fc
      .constantFrom(deepNesting(200), deepNesting(1_500))
      .chain((deep) => valid.map((o) => ({ ...o, nested: deep }))),
  );
  if (schema.maxProperties !== undefined || schema.additionalProperties)
    out.push(
      fc.constant(Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i % 2 ? 'v' : i]))),
    );
  return out;
}

function invalidArray(schema: Schema): fc.Arbitrary<unknown>[] {
  const items = schema.items && typeof schema.items === 'object' ? schema.items : {};
  const out: fc.Arbitrary<unknown>[] = [];
  const big = (schema.maxItems ?? 2_000) + 1;
  out.push(validArb(items).map((v) => Array.from({ length: big }, () => v)));
  out.push(fc.constant(Array.from({ length: 5_000 }, (_, i) => i)));
  if (schema.minItems) out.push(fc.constant([]));
  if (Object.keys(items).length)
    out.push(fc.tuple(validArray(schema), invalidArb(items)).map(([a, bad]) => [...a, bad]));
  out.push(fc.constant([deepNesting(1_000)]));
  return out;
}

const invalidCache = new WeakMap<Schema, fc.Arbitrary<unknown>>();

/**
 * Values the schema should refuse: wrong types, missing required or unknown properties, strings
 * too long or carrying NUL bytes and lone surrogates, bad formats, out-of-range and huge numbers,
 * deep nesting and huge arrays. A few may happen to be valid (a value wrong for one `anyOf`
 * branch can fit another): callers check responses, not that every one is refused.
 */
export function invalidArb(schema: Schema): fc.Arbitrary<unknown> {
  const cached = invalidCache.get(schema);
  if (cached) return cached;
  const arb = buildInvalid(schema);
  invalidCache.set(schema, arb);
  return arb;
}

function buildInvalid(schema: Schema): fc.Arbitrary<unknown> {
  const branches: Schema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) {
    const nonNull = branches.filter((b) => b.type !== 'null');
    return fc.oneof(...nonNull.map((b) => invalidArb(b)));
  }
  if (Array.isArray(schema.enum))
    return fc.constantFrom('__not_in_enum__', '', 'APPROVED', 42, null, ...HOSTILE_STRINGS.slice(0, 2));
  if ('const' in schema) return fc.constantFrom('__not_the_const__', 0, null);
  const types = typesOf(schema);
  const out: fc.Arbitrary<unknown>[] = [wrongType(schema)];
  for (const t of types) {
    if (t === 'string') out.push(...invalidString(schema));
    else if (t === 'integer' || t === 'number') out.push(...invalidNumber(schema, t === 'integer'));
    else if (t === 'object') out.push(...invalidObject(schema));
    else if (t === 'array') out.push(...invalidArray(schema));
  }
  return fc.oneof(...out);
}
