import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import { customFormats } from './schema-formats.ts';

/**
 * Two validators: query strings and path parameters arrive as text and are coerced to the declared
 * types (`limit=5` → 5); JSON bodies are not coerced, so a number where a string belongs is a 400.
 */
function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    ...options,
  });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  for (const [name, fn] of Object.entries(customFormats)) ajv.addFormat(name, fn);
  return ajv;
}

const bodyAjv = makeAjv({ coerceTypes: false });
const textAjv = makeAjv({ coerceTypes: 'array' });

export const validatorCompiler: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object) as never;
