import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// OpenTelemetry (issue 16): the trace an event was recorded in, carried to its webhook deliveries so
// the delivery's span joins the request's trace. A W3C carrier ({traceparent, tracestate}); null when
// tracing is off, which is the default.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `alter table events add column trace_context jsonb;
     alter table webhook_deliveries add column trace_context jsonb;`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `alter table webhook_deliveries drop column trace_context;
     alter table events drop column trace_context;`,
  );
}
