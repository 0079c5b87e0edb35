/**
 * `vericase <command>`: the command line, on commander. Every command and subcommand answers
 * `--help` (printed on stdout, exit 0, nothing opened or started); a wrong command or option is one
 * line on stderr with a hint and exit code 2; results of data commands are JSON on stdout, progress
 * and messages go to stderr. Exit codes: see EXIT below and docs/cli.md.
 *
 * Heavy modules (the server, the database, the runtime) are imported inside the actions, so that
 * help, --version and usage errors load none of them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import type pino from 'pino';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import type { Runtime } from '../runtime.ts';
import { createLogger } from '../shared/logger.ts';
import { PACKAGE_ROOT } from '../shared/package-root.ts';
import { UUID_RE } from '../shared/pg-errors.ts';
import { startStep } from './progress.ts';

/** The process's exit codes (documented in docs/cli.md and `vericase --help`). */
export const EXIT = {
  /** done */
  OK: 0,
  /** the command ran but could not do it (nothing found, download or check failed, refused, unexpected error) */
  FAILED: 1,
  /** usage: unknown command or option, missing or invalid argument, invalid environment variable */
  USAGE: 2,
  /** the embedded database's DATA_DIR is in use by another process */
  DATA_DIR_LOCKED: 3,
  /** DATA_DIR holds data that is not a valid database */
  DATA_DIR_DAMAGED: 4,
} as const;

/** Returned by `serve` and `worker`: the process keeps running until a signal stops it. */
export const KEEP_RUNNING = -1;

/** A usage error found after parsing (a configuration variable): reported like commander's own. */
export class UsageError extends Error {}

export const VERSION: string = JSON.parse(
  fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8'),
).version;

const GLOBAL_HELP = `
Configuration is read from the environment (see the README's table); the most used:
  DATABASE_URL   postgres://... (else the embedded database in DATA_DIR)
  DATA_DIR       embedded database and uploaded files (default ./data)
  PORT, HOST     where serve listens (default 3000, 0.0.0.0)
  LOG_LEVEL      fatal, error, warn, info (default), debug, trace or silent
  LOG_FORMAT     json (default: one object a line) or pretty (readable, for a terminal)

Exit codes:
  0  done
  1  the command ran but could not do it (nothing found, download failed, refused)
  2  usage: unknown command or option, missing or invalid argument or environment variable
  3  DATA_DIR is in use by another process (the embedded database has one owner)
  4  DATA_DIR holds data that is not a valid database

Run 'vericase <command> --help' for a command's options. More in docs/cli.md.
`;

/**
 * A command's JSON result on stdout, resolved once written. A write that fails (a full disk, a
 * closed pipe) rejects with an error that says what was done anyway: `lost` names the secret shown
 * only there, which the command created and nobody will see (exit 1, not the 0 of a success).
 */
async function print(value: unknown, lost?: string): Promise<void> {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  const failed = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
    // a stream in error also emits 'error', which would end the process on its own with no word
    const onError = (err: Error) => resolve(err);
    process.stdout.once('error', onError);
    try {
      process.stdout.write(text, (err) => {
        // on a failure the listener stays: the stream's 'error' may come after this callback
        if (!err) process.stdout.off('error', onError);
        resolve(err ?? null);
      });
    } catch (err) {
      resolve(err as Error);
    }
  });
  if (failed)
    throw new Error(
      `could not write the result to standard output (${failed.code ?? failed.message})${lost ? `: ${lost}` : ''}`,
    );
}

/** Everything on standard input (the first line counts: a key piped with its newline). */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split('\n')[0] ?? '';
}

function config(): Config {
  try {
    return loadConfig();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/**
 * The logger of the one-shot commands: on stderr (stdout is their JSON result), at warn unless
 * LOG_LEVEL asks for more, in LOG_FORMAT.
 */
function commandLogger(cfg: Config): pino.Logger {
  const level = process.env.LOG_LEVEL ? cfg.logLevel : 'warn';
  return createLogger({ level, format: cfg.logFormat, fd: 2 });
}

async function withRuntime<T>(
  cfg: Config,
  fn: (rt: Runtime) => Promise<T>,
  opts: Parameters<typeof import('../runtime.ts').openRuntime>[2] = {},
): Promise<T> {
  const { openRuntime } = await import('../runtime.ts');
  const rt = await openRuntime({ ...cfg, runWorkers: false }, commandLogger(cfg), opts);
  try {
    return await fn(rt);
  } finally {
    await rt.close();
  }
}

/**
 * Options a command cannot do without. Checked in the action rather than with commander's
 * requiredOption, which reports a missing option before an unknown one: `--nme x` should say
 * "unknown option '--nme' (did you mean --name?)", not "--name not specified".
 */
function required<T extends Record<string, unknown>>(
  cmd: Command,
  opts: T,
  ...names: (keyof T & string)[]
): void {
  for (const name of names) {
    const value = opts[name];
    const flags = () => cmd.options.find((o) => o.attributeName() === name)?.flags ?? `--${name}`;
    // a given but blank value never gets here: refuseBlank (the preAction hook) refused it first
    if (value === undefined) cmd.error(`error: required option '${flags()}' not specified`);
  }
}

/**
 * Every option and argument of every command, required or optional: a blank value (`--first-name ""`,
 * only spaces, an unset shell variable) is a usage error, as the exit codes say (docs/cli.md). An
 * optional text stored blank would not mean "unset" (a user named ""), and an id or key that is blank
 * would open the database only to find nothing; leaving the option out is how to unset it.
 */
function refuseBlank(cmd: Command): void {
  const blank = (value: unknown) => typeof value === 'string' && value.trim() === '';
  for (const option of cmd.options) {
    if (blank(cmd.getOptionValue(option.attributeName())))
      cmd.error(`error: option '${option.flags}' must not be empty`);
  }
  cmd.registeredArguments.forEach((argument, i) => {
    if (blank(cmd.processedArgs[i])) cmd.error(`error: argument '${argument.name()}' must not be empty`);
  });
}

/**
 * Counts each option's occurrences on the command line (commander keeps the last of a repeated
 * option and says nothing: `workspaces create --name a --name b` created "b"). No option of ours
 * takes several values, so a repeated one is a usage error (refuseRepeated).
 */
function countOccurrences(cmd: Command, counts: Map<Option, number>): void {
  for (const option of cmd.options) {
    cmd.on(`option:${option.name()}`, () => counts.set(option, (counts.get(option) ?? 0) + 1));
  }
  for (const sub of cmd.commands) countOccurrences(sub, counts);
}

function refuseRepeated(cmd: Command, counts: Map<Option, number>): void {
  for (const option of cmd.options) {
    if ((counts.get(option) ?? 0) > 1) cmd.error(`error: option '${option.flags}' is given more than once`);
  }
}

/** A positive integer option, checked in the action (a parser would run before --help is honoured). */
function positiveInt(cmd: Command, flag: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1)
    cmd.error(`error: ${flag} must be a positive integer, got '${value}'`);
  return n;
}

/**
 * Builds the program. `setCode` receives each action's exit code (KEEP_RUNNING for the servers).
 * Exposed for the tests of the command tree; src/cli/main.ts runs it.
 */
export function buildProgram(setCode: (code: number) => void): Command {
  const counts = new Map<Option, number>();
  const program = new Command('vericase')
    .description('vericase: identity and business verification service (KYB/KYC)')
    .version(VERSION, '-V, --version', 'print the version and exit')
    .helpOption('-h, --help', 'show this help and exit')
    .helpCommand('help [command]', 'show the help of a command')
    .exitOverride()
    .showSuggestionAfterError(true)
    // errors are written by run() below, as one line with a hint
    .configureOutput({ outputError: () => undefined })
    // runs before every command's action (after parsing and --help): no blank or repeated option
    .hook('preAction', (_program, action) => {
      refuseRepeated(action, counts);
      refuseBlank(action);
    })
    .addHelpText('after', GLOBAL_HELP);

  program
    .command('serve')
    .description('run the API (and, unless VERICASE_RUN_WORKERS=false, the background workers) on PORT')
    .addHelpText(
      'after',
      `
Logs are JSON lines on stdout (LOG_FORMAT=pretty for a terminal). On an empty DATA_DIR or database,
the first start creates the workspace "default" and prints its API key once. SIGTERM or SIGINT stop
it gracefully (exit 0).`,
    )
    .action(async () => {
      const { serve } = await import('../server.ts');
      await serve(config());
      setCode(KEEP_RUNNING);
    });

  program
    .command('worker')
    .description('run the background workers only (provider calls, webhooks, schedules)')
    .addHelpText(
      'after',
      `
Logs like serve. With VERICASE_WORKER_PORT it also answers /healthz, /readyz, /version and
/metrics on that port. SIGTERM or SIGINT stop it gracefully (exit 0).`,
    )
    .action(async () => {
      const { runWorker } = await import('../worker.ts');
      await runWorker(config());
      setCode(KEEP_RUNNING);
    });

  program
    .command('migrate')
    .description('migrate the database to the latest version, then exit')
    .addHelpText(
      'after',
      `
Shows the migrations it applies on stderr (a progress line on a terminal). 'serve' and 'worker'
also migrate at start; several processes starting together apply each migration once.`,
    )
    .action(async () => {
      const cfg = config();
      const step = startStep(
        `Opening the ${cfg.databaseUrl ? 'PostgreSQL' : 'embedded'} database and migrating it`,
      );
      let count = 0;
      try {
        await withRuntime(cfg, async () => undefined, {
          migrationProgress: {
            pending(names) {
              count = names.length;
              step.update(
                process.stderr.isTTY && names.length > 2
                  ? `Applying ${names.length} migrations (${names[0]} … ${names[names.length - 1]})`
                  : `Applying ${names.length} migration${names.length === 1 ? '' : 's'}: ${names.join(', ')}`,
              );
            },
          },
        });
      } catch (err) {
        step.fail();
        throw err;
      }
      step.done(count ? `Applied ${count} migration${count === 1 ? '' : 's'}` : 'No migration to apply');
      process.stderr.write('Database is migrated to the latest version.\n');
      setCode(EXIT.OK);
    });

  const workspaces = program.command('workspaces').description('create workspaces');
  workspaces
    .command('create')
    .description('create a workspace; prints it with a new API key (JSON, the key shown once)')
    .option('--name <name>', "the workspace's name (required)")
    .addHelpText('after', '\nExample:\n  vericase workspaces create --name "Acme Compliance"')
    .action(async (opts: { name: string }, cmd: Command) => {
      required(cmd, opts, 'name');
      const { createWorkspace } = await import('../workspaces/repository.ts');
      const ws = await withRuntime(config(), (rt) => createWorkspace(rt.ctx.db, opts.name));
      await print(
        {
          id: ws.id,
          name: ws.name,
          created_at: ws.created_at,
          api_key: ws.api_key,
          api_key_id: ws.api_key_id,
        },
        `workspace ${ws.id} was created, but its API key (shown only there) is lost: revoke key ${ws.api_key_id} (vericase keys revoke --id) and create another (vericase keys create --workspace ${ws.id})`,
      );
      setCode(EXIT.OK);
    });

  const keys = program.command('keys').description("create and revoke a workspace's API keys");
  keys
    .command('create')
    .description('create another API key for a workspace (JSON, the key shown once)')
    .option('--workspace <id|name>', "the workspace's id or name (required)")
    .option('--name <name>', 'what the key is for, as GET /v1/api-keys and the console list it')
    .action(async (opts: { workspace: string; name?: string }, cmd: Command) => {
      required(cmd, opts, 'workspace');
      if (opts.name !== undefined && opts.name.trim().length > 100)
        cmd.error('error: --name must be at most 100 characters');
      const { createApiKey } = await import('../workspaces/repository.ts');
      const { UsersCommandError, workspaceByIdOrName } = await import('./users.ts');
      try {
        const key = await withRuntime(config(), async (rt) =>
          createApiKey(rt.ctx.db, (await workspaceByIdOrName(rt.ctx.db, opts.workspace)).id, undefined, {
            name: opts.name?.trim() ?? null,
          }),
        );
        await print(
          {
            id: key.id,
            workspace_id: key.workspace_id,
            name: opts.name?.trim() ?? null,
            api_key: key.api_key,
          },
          `API key ${key.id} was created, but the key itself (shown only there) is lost: revoke it (vericase keys revoke --id ${key.id}) and create another`,
        );
        setCode(EXIT.OK);
      } catch (err) {
        if (!(err instanceof UsersCommandError)) throw err;
        if (err.exitCode === EXIT.USAGE) cmd.error(`error: ${err.message}`);
        process.stderr.write(`${commandName(cmd)}: ${err.message}\n`);
        setCode(EXIT.FAILED);
      }
    });
  keys
    .command('revoke')
    .description('revoke an API key, named by its id or by the key itself')
    .argument(
      '[api_key]',
      "the key itself (same as --key); '-' reads it from standard input (kept out of ps and history)",
    )
    .option('--id <key_id>', "the key's id")
    .option('--key <api_key>', 'the key itself')
    .action(async (positional: string | undefined, opts: { id?: string; key?: string }, cmd: Command) => {
      const given = [opts.id, opts.key, positional].filter((v) => v !== undefined);
      if (given.length > 1)
        cmd.error(
          `error: give one key to revoke, not ${given.length}: --id KEY_ID, --key API_KEY or the key as an argument`,
        );
      let target = given[0];
      if (target === '-' && positional === '-') {
        target = (await readStdin()).trim();
        if (!target)
          cmd.error('error: no key on standard input: pipe the key to revoke, or give --id KEY_ID');
      }
      if (!target) cmd.error('error: give the key to revoke: --id KEY_ID or --key API_KEY');
      // an id that cannot be one is a mistake in the command, not a key that is not there
      if (opts.id !== undefined && !UUID_RE.test(opts.id.trim()))
        cmd.error(`error: option '--id <key_id>' must be a key id (a UUID, as GET /v1/api-keys lists them)`);
      const { revokeApiKey } = await import('../workspaces/repository.ts');
      const revoked = await withRuntime(config(), (rt) => revokeApiKey(rt.ctx.db, target as string));
      if (!revoked) {
        process.stderr.write(
          `${commandName(cmd)}: no active key matches (an unknown key, or one already revoked)\n`,
        );
        setCode(EXIT.FAILED);
        return;
      }
      await print({ id: revoked.id, revoked: true });
      setCode(EXIT.OK);
    });

  const users = program.command('users').description("create the workspace's console users");
  users
    .command('create')
    .description(
      'create a console user; prints it with its password (JSON, generated when not given, shown once)',
    )
    .option('--workspace <id|name>', "the workspace's id or name (required)")
    .option('--email <e-mail>', 'the e-mail the user signs in with (required)')
    .option('--role <role>', 'admin, reviewer or viewer (required)')
    .option('--first-name <name>', "the user's first name")
    .option('--last-name <name>', "the user's last name")
    .option('--password <password>', 'at least 10 characters; else one is generated')
    .addHelpText(
      'after',
      `
Roles: viewers read, reviewers work on cases, admins also configure the workspace. The user signs
in to the console at /console/ (see the README's "Console sign-in").

Example:
  vericase users create --workspace default --email ops@example.com --role admin`,
    )
    .action(
      async (
        opts: {
          workspace: string;
          email: string;
          role: string;
          firstName?: string;
          lastName?: string;
          password?: string;
        },
        cmd: Command,
      ) => {
        required(cmd, opts, 'workspace', 'email', 'role');
        const { checkUserOptions, createUserCommand, UsersCommandError } = await import('./users.ts');
        try {
          checkUserOptions(opts);
          const user = await withRuntime(config(), (rt) => createUserCommand(rt.ctx.db, opts));
          await print(
            user,
            opts.password === undefined
              ? `user ${user.id} was created, but its generated password (shown only there) is lost, and with it any way to sign in as this user: suspend it in the console (Users and roles)`
              : undefined,
          );
          setCode(EXIT.OK);
        } catch (err) {
          if (!(err instanceof UsersCommandError)) throw err;
          if (err.exitCode === EXIT.USAGE) cmd.error(`error: ${err.message}`);
          process.stderr.write(`${commandName(cmd)}: ${err.message}\n`);
          setCode(EXIT.FAILED);
        }
      },
    );

  const data = program.command('data').description('the reference data: official sanctions lists');
  data
    .command('pull')
    .description('download the official sanctions lists into DATA_DIR/reference/<version>/ (JSON result)')
    .addOption(new Option('--keep <n>', 'how many pulled versions to keep').default('3', '3'))
    .addHelpText(
      'after',
      `
Progress on stderr: a bar per file on a terminal, one line per finished file otherwise. The new
version becomes current only once every file is downloaded and verified.`,
    )
    .action(async (opts: { keep: string }, cmd: Command) => {
      const keep = positiveInt(cmd, '--keep', opts.keep);
      const { dataCommand } = await import('./data-pull.ts');
      setCode(await dataCommand('pull', ['--keep', String(keep)], config()));
    });
  data
    .command('status')
    .description('show the pulled list version in use and verify its checksums (JSON)')
    .action(async () => {
      const { dataCommand } = await import('./data-pull.ts');
      setCode(await dataCommand('status', [], config()));
    });

  const db = program.command('db').description('back up and restore the database and the uploaded files');
  db.command('backup')
    .description('back up the database and the uploaded files into one archive')
    .option('--out <file>', 'the archive to write (required)')
    .option('--force', 'overwrite an existing file')
    .addHelpText(
      'after',
      `
The embedded database is copied while the server is stopped (the command refuses, exit 3, while it
runs); PostgreSQL is dumped with pg_dump. See docs/backup.md.`,
    )
    .action(async (opts: { out: string; force?: boolean }, cmd: Command) => {
      required(cmd, opts, 'out');
      const { dbCommand } = await import('./db-backup.ts');
      setCode(await dbCommand('backup', ['--out', opts.out, ...(opts.force ? ['--force'] : [])], config()));
    });
  db.command('restore')
    .description('restore a backup into an empty DATA_DIR or database')
    .option('--in <file>', 'the archive to read (required)')
    .option('--force', 'replace a non-empty DATA_DIR or database')
    .action(async (opts: { in: string; force?: boolean }, cmd: Command) => {
      required(cmd, opts, 'in');
      const { dbCommand } = await import('./db-backup.ts');
      setCode(await dbCommand('restore', ['--in', opts.in, ...(opts.force ? ['--force'] : [])], config()));
    });

  countOccurrences(program, counts);
  return program;
}

/** `vericase keys revoke --bad` → `vericase keys revoke`: the command a usage hint points to. */
export function commandPath(program: Command, argv: string[]): string {
  const names = [program.name()];
  let cmd = program;
  for (const arg of argv) {
    if (arg.startsWith('-')) break;
    const sub = cmd.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (!sub) break;
    names.push(sub.name());
    cmd = sub;
  }
  return names.join(' ');
}

/** `vericase keys create`: how a failure names the command that failed, as usage errors do. */
function commandName(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Commander's message (`error: unknown option '--nme'\n(Did you mean --name?)`) as one line. */
export function oneLine(message: string): string {
  const line = message
    .replace(/^error:\s*/i, '')
    .replace(/\n\(Did you mean (.*)\?\)/, ' (did you mean $1?)')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  // Commander suggests among long options only: `-v` (the version in many tools) got nothing
  return /^unknown option '(-v|-version|--v|--ver)'$/.test(line) ? `${line} (did you mean --version?)` : line;
}

/** Runs the command line; resolves to the exit code (KEEP_RUNNING for the servers). */
export async function run(argv: string[]): Promise<number> {
  let code: number = EXIT.OK;
  const program = buildProgram((c) => {
    code = c;
  });
  if (argv.length === 0) {
    program.outputHelp();
    return EXIT.OK;
  }
  const usage = (message: string, helpOf = commandPath(program, argv)) => {
    const where = commandPath(program, argv);
    process.stderr.write(`${where}: ${message}. See '${helpOf} --help'.\n`);
    return EXIT.USAGE;
  };
  // `vericase help <name>`: Commander prints the whole help on stderr for a name it does not know;
  // say which name, as for `vericase <name>`
  if (argv[0] === 'help') {
    let cmd = program;
    for (const name of argv.slice(1)) {
      if (name.startsWith('-')) break;
      const sub = cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
      if (!sub) {
        const where = commandPath(program, argv.slice(1));
        process.stderr.write(`${where}: unknown command '${name}'. See '${where} --help'.\n`);
        return EXIT.USAGE;
      }
      cmd = sub;
    }
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.OK;
      // help printed (on stderr) because a command was given without its subcommand
      if (err.code === 'commander.help') return err.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
      return usage(oneLine(err.message).replace(/\.$/, ''));
    }
    // an environment variable: the program's help lists the configuration
    if (err instanceof UsageError || err instanceof ConfigError)
      return usage(err.message.replace(/\.$/, ''), program.name());
    throw err;
  }
}
