import type { Config } from './config.ts';
import { closeServer } from './http/close-server.ts';
import { buildOpsApp } from './ops/ops-app.ts';
import { stopOnSignals } from './ops/stop-on-signals.ts';
import { startTracing } from './ops/tracing.ts';
import { openRuntime } from './runtime.ts';
import { checkListenHost, listenFailure } from './shared/listen-host.ts';

/** `vericase worker`: the background workers alone (provider calls, webhooks, schedules). */
export async function runWorker(config: Config): Promise<void> {
  // the ops port listens on HOST: a name that does not resolve is refused before anything starts
  if (config.workerPort !== null) await checkListenHost(config.host);
  const stopTracing = await startTracing();
  const runtime = await openRuntime({ ...config, runWorkers: true });
  // health, readiness and metrics of this process, when a port is configured (containers, Prometheus)
  const ops = config.workerPort !== null ? await buildOpsApp(runtime.ctx, runtime.logger as never) : null;
  if (ops)
    await ops
      .listen({ port: config.workerPort as number, host: config.host })
      .catch((err) => Promise.reject(listenFailure(err, config.host)));
  runtime.logger.info(
    {
      database: runtime.ctx.dbKind,
      opsPort: config.workerPort ?? undefined,
      // whether a file's metadata may steer the sandbox checks (docs/sandbox.md): off in production
      sandboxFileControls: config.sandboxFileControls,
    },
    'vericase worker running',
  );
  stopOnSignals(
    runtime.logger,
    { stopping: 'worker shutting down', stopped: 'worker shut down' },
    async (trace) => {
      await trace.step('ops server', () => ops && closeServer(ops, 1000));
      await runtime.close(trace);
      await trace.step('tracing', () => stopTracing?.());
    },
  );
}
