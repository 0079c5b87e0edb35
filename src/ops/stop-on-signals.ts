import type pino from 'pino';
import { ShutdownTrace } from './shutdown-trace.ts';

/**
 * A graceful stop's deadline: past it the process exits 1 (docs/deployment.md, docs/cli.md). A
 * supervisor must wait longer before its SIGKILL (compose.yaml's `stop_grace_period`).
 */
export const STOP_DEADLINE_MS = 15_000;

/**
 * The graceful stop of `vericase serve` and `vericase worker`: on the first SIGTERM or SIGINT it logs
 * `stopping`, runs `stop` with its steps on a trace, logs `stopped` with them and exits 0. A stop that
 * fails, or overruns the deadline, exits 1 and logs why (the steps still running, for an overrun).
 * Returns whether a stop has begun, for background work that must not start once it has.
 */
export function stopOnSignals(
  logger: pino.Logger,
  messages: { stopping: string; stopped: string },
  stop: (trace: ShutdownTrace) => Promise<void>,
): { readonly stopping: boolean } {
  let stopping = false;
  const run = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, messages.stopping);
    const trace = new ShutdownTrace();
    setTimeout(() => {
      logger.error(trace.report(), 'graceful shutdown timed out');
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    try {
      await stop(trace);
      logger.info(trace.report(), messages.stopped);
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void run('SIGTERM'));
  process.on('SIGINT', () => void run('SIGINT'));
  stopWithNpx(() => void run('npx exited'));
  return {
    get stopping() {
      return stopping;
    },
  };
}

/** How often a process started by npx looks whether npx is still there. */
const PARENT_POLL_MS = 1_000;

/**
 * `npx vericase serve` runs us under a shell (`sh -c`) that does not pass a SIGTERM sent to npm on:
 * npm and the shell exit and the server went on alone, holding its port and its data directory
 * (`npm start` execs node, so npm's signal reaches it). Started by npx (`npm_command=exec`), the
 * process stops when it is handed to another parent, as if signalled. Nothing else is watched: a
 * server started by `nohup` or a process manager keeps running when the shell that started it goes.
 */
function stopWithNpx(stop: () => void): void {
  if (process.env.npm_command !== 'exec') return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    stop();
  }, PARENT_POLL_MS);
  timer.unref();
}
