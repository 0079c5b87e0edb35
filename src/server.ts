import module from 'node:module';
import type { Config } from './config.ts';
import { withStartupLock } from './db/startup-lock.ts';
import { buildApp } from './http/app.ts';
import { closeServer } from './http/close-server.ts';
import { settleStartupMemory } from './ops/settle-memory.ts';
import { stopOnSignals } from './ops/stop-on-signals.ts';
import { startTracing } from './ops/tracing.ts';
import { openRuntime } from './runtime.ts';
import { checkListenHost, listenFailure } from './shared/listen-host.ts';
import { CODE_SOURCE } from './shared/package-root.ts';
import { serviceBaseUrl } from './shared/service-url.ts';
import { type BootstrapResult, bootstrapWorkspace } from './workspaces/bootstrap.ts';

/**
 * How long the requests in flight at a shutdown have to finish before their connections are cut: the
 * job queue then gets up to 10 s to let its jobs finish, all within the 15 s shutdown deadline.
 */
const HTTP_DRAIN_MS = 4000;

/** How long after the background loads settle start-up's memory is given back. */
const SETTLE_DELAY_MS = 2000;

/** `vericase serve`: the API (and, by default, the workers) in one process. */
export async function serve(config: Config): Promise<void> {
  await checkListenHost(config.host);
  // before anything that makes spans: off unless an OTLP endpoint is configured
  const stopTracing = await startTracing();
  // the port opens before the workers start and the sanctions lists load (startBackground below)
  const runtime = await openRuntime(config, undefined, { deferBackground: true, deferQueueStart: true });
  const { ctx, logger } = runtime;
  // The job queue starts (round trips to the database) while the routes are registered (CPU): on
  // PostgreSQL the two overlap. Both are done before the port opens: a request may enqueue.
  const [boot, app] = await Promise.all([
    runtime.startQueue().then(() =>
      // several processes starting together on an empty database: one creates the workspace
      withStartupLock(ctx.db, ctx.dbKind, 'bootstrap', (db) =>
        bootstrapWorkspace(db, config.bootstrapApiKey, config.console.bootstrapAdminEmail),
      ),
    ),
    buildApp(ctx, { logger: logger as never }),
  ]);
  let background: Promise<void> = Promise.resolve();
  const lifecycle = stopOnSignals(
    logger,
    { stopping: 'shutting down', stopped: 'shut down' },
    async (trace) => {
      // a stop right after the start: the workers finish starting before the queue stops
      await trace.step('background start', () => background);
      await trace.step('http server', () => closeServer(app, HTTP_DRAIN_MS));
      await runtime.close(trace);
      await trace.step('tracing', () => stopTracing?.());
    },
  );
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    // the port is taken (or not ours): the workspace created for this first start is taken back,
    // so the next start creates it again and prints its key and password. They used to be printed
    // before the port was tried: a first start on a busy port showed its one-time secrets next to
    // another program's URL, exited, and the start on a free port printed nothing
    if (boot.workspaceId) {
      await ctx.db.deleteFrom('workspaces').where('id', '=', boot.workspaceId).execute();
    }
    throw listenFailure(err, config.host);
  }
  printFirstStartSecrets(config, boot);
  logger.info(
    {
      port: config.port,
      database: ctx.dbKind,
      dataDir: ctx.dbKind === 'pglite' ? config.dataDir : undefined,
      // applied by buildApp (src/http/server-options.ts): logged so an operator sees what is in force
      httpTimeoutsMs: config.http,
      // the base of the links the service issues: VERICASE_PUBLIC_URL, else this listen address
      linksBaseUrl: serviceBaseUrl(config),
      // whether a file's metadata may steer the sandbox checks (docs/sandbox.md): off in production
      sandboxFileControls: config.sandboxFileControls,
      // the bundled build or the TypeScript sources (bin/server-bundle.js)
      code: CODE_SOURCE,
      // whether this process runs with Node's compile cache (the bundle does: bin/server-bundle.js)
      compileCache: module.getCompileCacheDir?.() !== undefined,
      // AsyncLocalStorage without promise hooks (bin/node-flags.js)
      asyncContextFrame: process.execArgv.includes('--experimental-async-context-frame'),
    },
    'vericase listening',
  );
  // then the workers and the sanctions lists: /readyz is not_ready until they run and are loaded
  background = runtime.startBackground().then(
    ({ loaded }) => {
      // start-up's memory is given back once the lists are in and the first requests had their
      // moment: the collection holds the event loop (src/ops/settle-memory.ts)
      if (config.settleMemory)
        void loaded.then(() => {
          setTimeout(() => {
            if (!lifecycle.stopping) settleStartupMemory(logger);
          }, SETTLE_DELAY_MS).unref();
        });
    },
    (err) => {
      if (!lifecycle.stopping) logger.error({ err }, 'the background work did not start');
    },
  );
}

/**
 * The first start's API key and console password, printed once the port is open (they are shown
 * once): on purpose outside the JSON log stream so they stand out.
 */
function printFirstStartSecrets(config: Config, boot: BootstrapResult): void {
  if (boot.newApiKey) {
    process.stdout.write(
      `\nCreated workspace "default". Its API key (shown once, store it now):\n\n  ${boot.newApiKey}\n\n`,
    );
  }
  if (boot.newAdmin) {
    const consoleUrl = `${serviceBaseUrl(config)}/console/`;
    process.stdout.write(
      `Console: ${consoleUrl}\nSign in as ${boot.newAdmin.email} with this password (shown once, change it after signing in):\n\n  ${boot.newAdmin.password}\n\n`,
    );
  }
}
