import type { Config } from './config.ts';
import { openRuntime } from './runtime.ts';

/** `vericase worker`: the background workers alone (provider calls, webhooks, schedules). */
export async function runWorker(config: Config): Promise<void> {
  const runtime = await openRuntime({ ...config, runWorkers: true });
  runtime.logger.info({ database: runtime.ctx.dbKind }, 'vericase worker running');
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    runtime.logger.info({ signal }, 'worker shutting down');
    setTimeout(() => process.exit(1), 15_000).unref();
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
