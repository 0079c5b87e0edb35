import type { AppContext } from '../../app-context.ts';
import type { Config } from '../../config.ts';
import type { CheckTypeDefinition } from '../check-type.ts';

/** Job queues of the check engine. */
export const PROCESS_QUEUE = 'checks.process';
/** Provider work that may take minutes (document analysis with OCR): few at a time, long expiry. */
export const SLOW_PROCESS_QUEUE = 'checks.process_slow';
export const EXPIRE_QUEUE = 'checks.expire';

/** The queue of a type's provider work. */
export function processQueueOf(def: Pick<CheckTypeDefinition, 'slowProcess'>, config: Config): string {
  const slow = typeof def.slowProcess === 'function' ? def.slowProcess(config) : def.slowProcess;
  return slow ? SLOW_PROCESS_QUEUE : PROCESS_QUEUE;
}

/** When provider work starts: after the sandbox delay (config `sandboxDelayMs`). */
export const processAfter = (ctx: AppContext) => ({
  startAfter: new Date(Date.now() + ctx.config.sandboxDelayMs),
});
