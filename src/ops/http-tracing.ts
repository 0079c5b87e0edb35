/**
 * One server span per HTTP request, continuing the caller's `traceparent` when it sends one, named by
 * the route pattern (never the URL: ids stay out of span names), and active while the handler runs,
 * so the jobs and events it makes carry its context. Installed only when tracing is on.
 */
import { context, propagation, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { tracer, tracingEnabled } from './tracing.ts';

declare module 'fastify' {
  interface FastifyRequest {
    otelSpan?: Span;
  }
}

export function registerHttpTracing(app: FastifyInstance): void {
  if (!tracingEnabled()) return;
  app.addHook('onRequest', (req, _reply, done) => {
    const parent = propagation.extract(context.active(), req.headers);
    const route = req.routeOptions.url ?? 'unmatched';
    const span = tracer().startSpan(
      `${req.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': req.method, 'http.route': route, 'vericase.request_id': req.id },
      },
      parent,
    );
    req.otelSpan = span;
    done();
  });
  // active from the handler's hooks on: set after the body is read, since the body's stream events
  // run in the connection's async context, not the request's (the request scope does the same)
  app.addHook('preHandler', (req, _reply, done) => {
    if (!req.otelSpan) return done();
    context.with(trace.setSpan(context.active(), req.otelSpan), done);
  });
  app.addHook('onResponse', async (req, reply) => {
    const span = req.otelSpan;
    if (!span) return;
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
}
