import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { REFERENCE, type Schema } from './reference-shapes.ts';

/**
 * The reference product's schemas as a client generated from its OpenAPI document validates
 * them: ajv over the OpenAPI 3.0 schemas (nullable, formats, patterns, bounds, enumerations, the
 * values of free-form maps), where reference-shapes.ts checks presence, types and enumerations.
 *
 * Only the differences docs/compatibility.md documents are let through: vericase's provider names
 * where the reference enumerates its vendors, and the `Case.RelationsUpdated` sub-event (the
 * reference has no name for relation changes). `oneOf` is read as `anyOf`: the reference's own
 * alternatives overlap (a number is both a `number` and a nullable `number` custom property value).
 */
const REFERENCE_VENDORS = [
  'gbg',
  'veriff',
  'idnow',
  'ubble',
  'cifas',
  'comply_advantage',
  'worldcheck',
  'onfido',
];
const OUR_PROVIDERS = [
  'idd_provider_1',
  'idd_provider_2',
  'ekyc_provider_1',
  'idv_provider_1',
  'screening_provider_1',
  'shared_fraud_list',
  'signature_provider_1',
  'online_reputation_provider_1',
];
const DOCUMENTED_EXTRAS: Record<string, (s: Schema) => void> = {
  CaseWebhook: (s) => {
    s.properties.sub_event.enum = [...s.properties.sub_event.enum, 'Case.RelationsUpdated'];
  },
};

function convert(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(convert);
  if (!s || typeof s !== 'object') return s;
  const out: Schema = {};
  for (const [k, v] of Object.entries(s as Schema)) {
    if (['example', 'examples', 'discriminator', 'deprecated', 'readOnly', 'writeOnly'].includes(k)) continue;
    if (k === '$ref') out.$ref = String(v).replace('#/components/schemas/', '#/definitions/');
    else if (k === 'oneOf') out.anyOf = convert(v);
    else if (k === 'properties')
      out.properties = Object.fromEntries(Object.entries(v as Schema).map(([p, sub]) => [p, convert(sub)]));
    else out[k] = convert(v);
  }
  // the reference writes one pattern as a JavaScript literal (/^[a-z][a-z_0-9]*$/)
  if (typeof out.pattern === 'string' && out.pattern.startsWith('/')) out.pattern = out.pattern.slice(1, -1);
  if (Array.isArray(out.enum) && out.enum.some((e: unknown) => REFERENCE_VENDORS.includes(e as string)))
    out.enum = [...new Set([...out.enum, ...OUR_PROVIDERS])];
  if (out.nullable) {
    delete out.nullable;
    if (out.type && !out.$ref && !out.allOf && !out.anyOf) {
      out.type = [out.type, 'null'];
      if (out.enum) out.enum = [...out.enum, null];
      return out;
    }
    return { anyOf: [out, { type: 'null' }] };
  }
  delete out.nullable;
  return out;
}

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

function instance(): Ajv {
  if (ajv) return ajv;
  ajv = new Ajv({ allErrors: true, strict: false });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  ajv.addFormat('alpha-2', /^[A-Z]{2}$/);
  ajv.addFormat('e.164', /^\+[1-9]\d{6,14}$/);
  ajv.addFormat('url', /^https?:\/\/\S+$/);
  for (const f of ['float', 'integer', 'binary']) ajv.addFormat(f, true);
  return ajv;
}

/** Errors of `value` against the named reference schema, as ajv words them (empty: valid). */
export function referenceErrors(name: string, value: unknown): string[] {
  let validate = compiled.get(name);
  if (!validate) {
    const definitions = Object.fromEntries(
      Object.entries(REFERENCE.components.schemas as Record<string, Schema>).map(([k, v]) => {
        const schema = structuredClone(v);
        DOCUMENTED_EXTRAS[k]?.(schema);
        return [k, convert(schema)];
      }),
    );
    validate = instance().compile({ definitions, $ref: `#/definitions/${name}` });
    compiled.set(name, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (e) => `${name}${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`,
  );
}
