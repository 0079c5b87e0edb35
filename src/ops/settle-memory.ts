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
 * that space otherwise, idle or not: 172 MB resident at idle on PostgreSQL without the lists
 * became 139 MB (docs/performance.md). Under load the young generation grows again as V8 sees fit,
 * so requests pay nothing for it; the collection itself holds the event loop once, for 0.1 to 0.3 s,
 * after start-up (off with VERICASE_SETTLE_MEMORY=false).
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
