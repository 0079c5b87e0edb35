/**
 * OpenTelemetry tracing, off unless an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, the SDK's own variables; OTEL_SERVICE_NAME defaults to
 * `vericase`). One trace follows a piece of work across processes:
 *
 *   HTTP request → job (its context travels in the job's data) → provider call → events → webhook
 *   delivery (its context travels in the event and delivery rows; the POST carries `traceparent`).
 *
 * Spans are made by hand at those few places (no auto-instrumentation loader): with tracing off the
 * API is a no-op and the HTTP hooks are not even installed.
 */
import {
  type Context,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

/** A W3C trace-context carrier (`traceparent`, `tracestate`), as stored in jobs, events and deliveries. */
export type TraceCarrier = Record<string, string>;

let enabled = false;

/** Tracing is on in this process (an SDK was started). */
export function tracingEnabled(): boolean {
  return enabled;
}

export const tracer = () => trace.getTracer('vericase');

/** Whether the environment asks for tracing (an OTLP endpoint is set). */
export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Starts the OpenTelemetry Node SDK when configured (or with `spanProcessors` given: tests pass an
 * in-memory exporter). Returns its shutdown, which flushes the spans, or null when tracing is off.
 */
export async function startTracing(
  opts: { env?: NodeJS.ProcessEnv; spanProcessors?: unknown[] } = {},
): Promise<(() => Promise<void>) | null> {
  const env = opts.env ?? process.env;
  if (!opts.spanProcessors && !tracingConfigured(env)) return null;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? 'vericase',
    // no auto-instrumentations: the spans below are the ones that tell the story
    instrumentations: [],
    ...(opts.spanProcessors ? { spanProcessors: opts.spanProcessors as never } : {}),
  });
  sdk.start();
  enabled = true;
  return async () => {
    enabled = false;
    await sdk.shutdown();
  };
}

/** The current context as a carrier to store, or null when there is no span to continue. */
export function currentTraceCarrier(): TraceCarrier | null {
  if (!enabled || !trace.getSpan(context.active())) return null;
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? carrier : null;
}

/** The context a stored carrier describes (the active one when there is none). */
export function contextFrom(carrier: unknown): Context {
  if (!carrier || typeof carrier !== 'object') return context.active();
  return propagation.extract(context.active(), carrier as TraceCarrier);
}

/**
 * Runs `fn` in a new span (child of `parent`, else of the active context), ending it when `fn`
 * settles and recording an exception. With tracing off it only calls `fn`.
 */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Record<string, string | number | boolean>; parent?: Context },
  fn: (span: Span | null) => Promise<T>,
): Promise<T> {
  if (!enabled) return fn(null);
  const parent = options.parent ?? context.active();
  return tracer().startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes },
    parent,
    async (span) => {
      try {
        return await fn(span);
      } catch (err) {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: String((err as Error)?.message ?? err) });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

export { SpanKind };
