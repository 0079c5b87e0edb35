import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import { CorruptDataDirError } from '../db/pgdata-check.ts';
import { openRuntime } from '../runtime.ts';
import { serve } from '../server.ts';
import { runWorker } from '../worker.ts';
import { createApiKey, createWorkspace, findWorkspace, revokeApiKey } from '../workspaces/repository.ts';
import { COMMANDS_HELP } from './help.ts';

/** `vericase <command>`: the service and its operator commands. Output of data commands is JSON. */
async function main(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  const config = loadConfig();
  const quietLogger = (await import('pino')).default({ level: 'warn' });
  const print = (v: unknown) => process.stdout.write(`${JSON.stringify(v, null, 2)}\n`);

  const withRuntime = async <T>(fn: (rt: Awaited<ReturnType<typeof openRuntime>>) => Promise<T>) => {
    const rt = await openRuntime({ ...config, runWorkers: false }, quietLogger);
    try {
      return await fn(rt);
    } finally {
      await rt.close();
    }
  };

  switch (command) {
    case 'serve':
      await serve(config);
      return -1; // keeps running
    case 'worker':
      await runWorker(config);
      return -1;
    case 'migrate':
      await withRuntime(async () => undefined);
      process.stderr.write('Database is migrated to the latest version.\n');
      return 0;
    case 'workspaces': {
      if (sub !== 'create') break;
      const { values } = parseArgs({ args: rest, options: { name: { type: 'string' } } });
      if (!values.name) {
        process.stderr.write('Usage: vericase workspaces create --name NAME\n');
        return 2;
      }
      const name = values.name;
      const ws = await withRuntime((rt) => createWorkspace(rt.ctx.db, name));
      print({
        id: ws.id,
        name: ws.name,
        created_at: ws.created_at,
        api_key: ws.api_key,
        api_key_id: ws.api_key_id,
      });
      return 0;
    }
    case 'keys': {
      if (sub === 'create') {
        const { values } = parseArgs({ args: rest, options: { workspace: { type: 'string' } } });
        const workspaceId = values.workspace;
        if (!workspaceId) {
          process.stderr.write('Usage: vericase keys create --workspace WORKSPACE_ID\n');
          return 2;
        }
        const key = await withRuntime(async (rt) =>
          (await findWorkspace(rt.ctx.db, workspaceId).catch(() => undefined))
            ? createApiKey(rt.ctx.db, workspaceId)
            : null,
        );
        if (!key) {
          process.stderr.write(`No workspace with id ${workspaceId}\n`);
          return 1;
        }
        print({ id: key.id, workspace_id: key.workspace_id, api_key: key.api_key });
        return 0;
      }
      if (sub === 'revoke') {
        const { values, positionals } = parseArgs({
          args: rest,
          options: { key: { type: 'string' }, id: { type: 'string' } },
          allowPositionals: true,
        });
        const target = values.id ?? values.key ?? positionals[0];
        if (!target) {
          process.stderr.write('Usage: vericase keys revoke --id KEY_ID | --key API_KEY\n');
          return 2;
        }
        const revoked = await withRuntime((rt) => revokeApiKey(rt.ctx.db, target));
        if (!revoked) {
          process.stderr.write('No active key matches\n');
          return 1;
        }
        print({ id: revoked.id, revoked: true });
        return 0;
      }
      break;
    }
    case 'db': {
      const { dbCommand } = await import('./db-backup.ts');
      return dbCommand(sub, rest, config);
    }
    case 'data': {
      const { dataCommand } = await import('./data-pull.ts');
      return dataCommand(sub, rest, config);
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(COMMANDS_HELP);
      return 0;
  }
  process.stderr.write(`Unknown command: ${argv.join(' ')}\n\n${COMMANDS_HELP}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err) => {
    if (err instanceof DataDirLockedError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(3);
    }
    if (err instanceof CorruptDataDirError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(4);
    }
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
