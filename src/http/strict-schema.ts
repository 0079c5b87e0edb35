/**
 * Makes an input schema (body, query string, path parameters) strict, so that no route can forget it:
 * every object refuses properties it does not declare, every string, array and number has a bound,
 * and records have a bounded number of keys. Applied to every route by `registerStrictInput`; the
 * schema it returns is the one validated and the one the OpenAPI document shows.
 *
 * Bounds a schema states itself win; these are only the defaults.
 */

/** Default longest string when a schema states none (a name, a code, a free-text field). */
export const DEFAULT_MAX_STRING = 1000;
/** Default longest array when a schema states none. */
export const DEFAULT_MAX_ITEMS = 1000;
/** Default largest record (free-form object: custom properties, metadata). */
export const DEFAULT_MAX_PROPERTIES = 200;
/** Longest key of a free-form record. */
export const MAX_KEY_LENGTH = 200;
/** Integers land in 32-bit integer columns unless a schema says otherwise: -2^31 to 2^31-1. */
export const INT32 = 2_147_483_647;
export const INT32_MIN = -2_147_483_648;
/** Plain numbers: far beyond any amount or percentage we store, still exact in a double. */
export const MAX_NUMBER = 1e15;

/** The longest string each format allows, so formatted fields are documented with a bound too. */
const FORMAT_MAX: Record<string, number> = {
  uuid: 36,
  date: 10,
  'date-time': 64,
  email: 254,
  uri: 2048,
  'alpha-2': 2,
  'e.164': 16,
  'tag-label': 100,
};

type Schema = Record<string, unknown>;

const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SUBSCHEMA_ONE = ['items', 'not', 'if', 'then', 'else', 'additionalProperties', 'contains'] as const;
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'] as const;

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function typesOf(s: Schema): string[] {
  if (Array.isArray(s.type)) return s.type as string[];
  return typeof s.type === 'string' ? [s.type] : [];
}

/** A strict copy of `schema` (the input is not modified: schemas are shared with responses). */
export function strictSchema<T>(schema: T): T {
  return strict(schema) as T;
}

function strict(input: unknown): unknown {
  if (Array.isArray(input)) return input.map(strict);
  if (!isSchema(input)) return input;
  const s: Schema = {};
  for (const key of Object.keys(input)) {
    const v = input[key];
    if ((SUBSCHEMA_LISTS as readonly string[]).includes(key) && Array.isArray(v)) s[key] = v.map(strict);
    else if ((SUBSCHEMA_ONE as readonly string[]).includes(key) && isSchema(v)) s[key] = strict(v);
    else if ((SUBSCHEMA_MAPS as readonly string[]).includes(key) && isSchema(v)) {
      const out: Schema = {};
      for (const [name, sub] of Object.entries(v)) out[name] = strict(sub);
      s[key] = out;
    } else s[key] = v;
  }
  const types = typesOf(s);
  const isObject = types.includes('object') || (types.length === 0 && isSchema(s.properties));
  if (isObject) {
    if (s.patternProperties !== undefined || isSchema(s.additionalProperties)) {
      // a free-form record: bound its size and its keys
      s.maxProperties ??= DEFAULT_MAX_PROPERTIES;
      s.propertyNames ??= { maxLength: MAX_KEY_LENGTH };
      s.additionalProperties ??= false;
    } else {
      s.additionalProperties ??= false;
    }
  }
  if (types.includes('string')) {
    const byFormat = typeof s.format === 'string' ? FORMAT_MAX[s.format] : undefined;
    if (s.maxLength === undefined && s.enum === undefined && s.const === undefined)
      s.maxLength = byFormat ?? DEFAULT_MAX_STRING;
  }
  if (types.includes('array')) s.maxItems ??= DEFAULT_MAX_ITEMS;
  if (types.includes('integer')) {
    if (s.maximum === undefined && s.exclusiveMaximum === undefined) s.maximum = INT32;
    if (s.minimum === undefined && s.exclusiveMinimum === undefined) s.minimum = INT32_MIN;
  } else if (types.includes('number')) {
    if (s.maximum === undefined && s.exclusiveMaximum === undefined) s.maximum = MAX_NUMBER;
    if (s.minimum === undefined && s.exclusiveMinimum === undefined) s.minimum = -MAX_NUMBER;
  }
  return s;
}
