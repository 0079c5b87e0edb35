/**
 * Replaces every schema in the document that is structurally one of the named resources
 * (src/http/openapi/components.ts) by a `$ref` to `components.schemas.<Name>`, and writes the named
 * schemas there (themselves referring to the others they contain). The routes keep declaring plain
 * TypeBox schemas; naming happens once, here, when the document is built.
 */
import type { TSchema } from 'typebox';
import { canonicalJson } from '../../shared/canonical-json.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A schema as fastify-swagger writes it into an OpenAPI 3.1 document (its convertJsonSchemaToOpenapi3):
 * `const` becomes a one-value `enum`, `patternProperties` becomes `additionalProperties`, `$id` and
 * `$schema` go. The named schemas pass through this so they compare equal to the routes' copies.
 */
export function asSwaggerWrites(node: Json): Json {
  if (node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map(asSwaggerWrites);
  const out: { [key: string]: Json } = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$id' || k === '$schema' || k === 'definitions') continue;
    // patternProperties wins over an additionalProperties beside it, whatever their order
    if (k === 'additionalProperties' && node.patternProperties) continue;
    if (k === 'const') out.enum = [v];
    else if (k === 'contentEncoding') {
      if (v === 'binary') out.format = 'binary';
      else if (v === 'base64') out.format = 'byte';
    } else if (k === 'patternProperties' && v && typeof v === 'object' && !Array.isArray(v)) {
      out.additionalProperties = asSwaggerWrites(Object.values(v)[0]);
    } else if (k === 'properties' && v && typeof v === 'object' && !Array.isArray(v)) {
      out.properties = Object.fromEntries(Object.entries(v).map(([p, sub]) => [p, asSwaggerWrites(sub)]));
    } else out[k] = asSwaggerWrites(v);
  }
  return out;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * Walks `node` top-down: a node equal to a named schema (other than `self`, the component being
 * written) becomes a reference; otherwise its children are walked. Counts replacements in `used`.
 */
function replaceNamed(
  node: Json,
  byCanonical: Map<string, string>,
  used: Map<string, number>,
  self?: string,
): Json {
  if (node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map((n) => replaceNamed(n, byCanonical, used));
  if (typeof node.type === 'string' || node.anyOf || node.properties) {
    const name = byCanonical.get(canonicalJson(node));
    if (name && name !== self) {
      used.set(name, (used.get(name) ?? 0) + 1);
      return ref(name);
    }
  }
  const out: { [key: string]: Json } = {};
  for (const [k, v] of Object.entries(node)) out[k] = replaceNamed(v, byCanonical, used);
  return out;
}

export interface NamedDocument {
  doc: Record<string, unknown>;
  /** How many places each name replaced (a name used nowhere is still written: it is a resource). */
  uses: Map<string, number>;
}

export function nameSchemas(doc: Record<string, unknown>, named: Record<string, TSchema>): NamedDocument {
  const plain: Record<string, Json> = {};
  const byCanonical = new Map<string, string>();
  for (const [name, schema] of Object.entries(named)) {
    const json = asSwaggerWrites(JSON.parse(JSON.stringify(schema)) as Json);
    plain[name] = json;
    const key = canonicalJson(json);
    // the first name given to a shape wins (e.g. a check type whose data equals another's)
    if (!byCanonical.has(key)) byCanonical.set(key, name);
  }
  const uses = new Map<string, number>();
  const paths = replaceNamed(doc.paths as Json, byCanonical, uses);
  const components = (doc.components ?? {}) as { schemas?: Record<string, Json> };
  const schemas: Record<string, Json> = { ...(components.schemas ?? {}) };
  for (const [name, json] of Object.entries(plain)) {
    schemas[name] = replaceNamed(json, byCanonical, uses, name);
  }
  return { doc: { ...doc, paths, components: { ...components, schemas } }, uses };
}
