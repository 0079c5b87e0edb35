import v8 from 'node:v8';
import vm from 'node:vm';
import type pino from 'pino';

type GcFunction = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * V8's `gc()`, reached without starting Node with `--expose-gc` (which would hand it to every
 * module): the flag is turned on for the creation of one context, then off again (Jest does the
 * same). Null if this Node refuses.
 */
function exposedGc(): GcFunction | null {
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as GcFunction;
  } catch {
    return null;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}

/**
 * Gives back the memory start-up grew into, once everything it loads is loaded: one full,
 * memory-reducing collection (V8's "last resort" one, which also shrinks the young generation
 * back from the 32 MB the start-up's burst of module loading and schema compiling grew it to). V8 keeps
 * that space until V8's own memory reducer runs the same kind of collection, once the allocation rate
 * has stayed low for about 8 s (10-36 s after ready in an idle service, seen with --trace-gc as
 * "Mark-Compact (reduce)"; idle RSS on PostgreSQL with the lists 162 -> 132 MB, docs/performance.md).
 * This brings it forward, to 2 s after the lists have loaded.
 *
 * Opt-in (VERICASE_SETTLE_MEMORY=true), because it is not free: after any forced full collection at
 * that point (this one, a plain `gc()` under --expose-gc, even one run before the port opens) every
 * request cost 17-30% more CPU, and still did after 1.2 million requests (GET /v1/ping on PostgreSQL,
 * 26.8 -> 34.5 µs; 2026-11-28). The collections under load were the same in number and size, so it
 * is the mutator that got slower; the cause was not found. V8's own memory-reducing collections did
 * not do this (A/B with --no-memory-reducer after 30 s idle: 91%, session 15); one such forced
 * collection each time the process went quiet did, and more with each (+46%, session 15). For a
 * small, mostly idle deployment the memory may still be worth it. The collection itself holds the
 * event loop once, for 0.1 to 0.3 s.
 */
export function settleStartupMemory(logger: pino.Logger): void {
  const gc = exposedGc();
  if (!gc) return;
  const before = process.memoryUsage.rss();
  const started = performance.now();
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  logger.info(
    {
      ms: Math.round(performance.now() - started),
      rssMb: { before: mb(before), after: mb(process.memoryUsage.rss()) },
    },
    'start-up memory given back',
  );
}

const mb = (bytes: number) => Math.round(bytes / 1048576);
