/**
 * Route schemas compiled on a route's first use instead of at start-up. Fastify compiles every
 * route's request validators (ajv) and response serializers (fast-json-stringify) while the app
 * boots: 0.7 s of the start-up's CPU for this service's routes, most of them not called in a given
 * process's first minutes. Here each compiler returns a stand-in that compiles the real function
 * the first time it runs (a few milliseconds, once per route and part) and then delegates to it.
 *
 * The price: a schema that cannot compile fails that route's first request (a 500) rather than the
 * start; test/openapi.test.ts and the suite call every route.
 */
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';

// biome-ignore lint/suspicious/noExplicitAny: validators and serializers take any input
type Fn = ((data: any) => any) & { errors?: unknown };

/** A function that compiles `build()` on its first call; ajv's `errors` are passed on. */
function lazily(build: () => Fn): Fn {
  let compiled: Fn | undefined;
  const stand: Fn = (data) => {
    compiled ??= build();
    const result = compiled(data);
    stand.errors = compiled.errors;
    return result;
  };
  return stand;
}

/** A validator compiler whose validators compile on first use. */
export function lazyValidatorCompiler(
  compile: FastifySchemaCompiler<FastifySchema>,
): FastifySchemaCompiler<FastifySchema> {
  return (route) => lazily(() => compile(route) as Fn) as never;
}

type SerializerBuilder = (
  externalSchemas: unknown,
  serializerOpts: unknown,
) => (route: { schema: unknown; method: string; url: string; httpStatus: string }) => Fn;

/** Fastify's `schemaController.compilersFactory.buildSerializer`, with lazily compiled serializers. */
export const buildLazySerializer: SerializerBuilder = (externalSchemas, serializerOpts) => {
  const compile = (SerializerSelector as unknown as () => SerializerBuilder)()(
    externalSchemas,
    serializerOpts,
  );
  return (route) => lazily(() => compile(route));
};
