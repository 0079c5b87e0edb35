import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

// Every answer is checked against the reference product's own OpenAPI document: required fields
// present, types, enums, formats, nullability, through $ref/allOf/oneOf.
export type Schema = Record<string, any>;
export const REFERENCE = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '../../../shared/reference/anchor-openapi.json'), 'utf8'),
);
export const SCHEMAS: Record<string, Schema> = REFERENCE.components.schemas;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FORMATS: Record<string, (v: string) => boolean> = {
  uuid: (v) => UUID.test(v),
  'date-time': (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v),
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v),
  email: (v) => /^[^@\s]+@[^@\s]+$/.test(v),
};

const resolve = (s: Schema): Schema => (s.$ref ? SCHEMAS[s.$ref.split('/').pop() as string] : s);

/** Errors of `value` against a reference schema (empty: valid). */
function check(value: unknown, schema: Schema, at: string): string[] {
  const s = resolve(schema);
  if (value === null) return s.nullable ? [] : [`${at}: null where the reference does not allow it`];
  if (s.allOf) return s.allOf.flatMap((sub: Schema) => check(value, sub, at));
  if (s.oneOf) {
    const mapping = s.discriminator?.mapping;
    if (mapping) {
      const tag = (value as Record<string, unknown>)[s.discriminator.propertyName] as string;
      if (!mapping[tag]) return [`${at}: discriminator value ${tag} unknown to the reference`];
      return check(value, { $ref: mapping[tag] }, at);
    }
    const fits = s.oneOf.filter((sub: Schema) => check(value, sub, at).length === 0);
    return fits.length ? [] : [`${at}: matches none of the reference's alternatives`];
  }
  const errs: string[] = [];
  if (s.enum && !s.enum.includes(value))
    errs.push(`${at}: ${JSON.stringify(value)} not in the reference enum`);
  switch (s.type) {
    case 'string':
      if (typeof value !== 'string') return [`${at}: expected a string`];
      if (s.format && FORMATS[s.format] && !FORMATS[s.format](value)) errs.push(`${at}: not a ${s.format}`);
      return errs;
    case 'number':
    case 'integer':
      return typeof value === 'number' ? errs : [`${at}: expected a number`];
    case 'boolean':
      return typeof value === 'boolean' ? errs : [`${at}: expected a boolean`];
    case 'array':
      if (!Array.isArray(value)) return [`${at}: expected an array`];
      return value.flatMap((v, i) => check(v, s.items ?? {}, `${at}[${i}]`));
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) return [`${at}: expected an object`];
      const obj = value as Record<string, unknown>;
      for (const r of s.required ?? []) if (!(r in obj)) errs.push(`${at}.${r}: required by the reference`);
      for (const [k, sub] of Object.entries((s.properties ?? {}) as Record<string, Schema>))
        if (k in obj) errs.push(...check(obj[k], sub, `${at}.${k}`));
      return errs;
    }
    default:
      return errs;
  }
}

export function assertReference(value: unknown, schemaName: string | Schema) {
  const schema = typeof schemaName === 'string' ? SCHEMAS[schemaName] : schemaName;
  assert.ok(schema, `reference schema ${String(schemaName)}`);
  assert.deepEqual(check(value, schema, typeof schemaName === 'string' ? schemaName : 'value'), []);
}

/** The response schema of a reference operation (what a client generated from it expects). */
export function referenceResponse(pathName: string): Schema {
  return REFERENCE.paths[pathName].get.responses['200'].content['application/json'].schema;
}
