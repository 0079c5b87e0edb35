/**
 * The `vericase` executable (bin/vericase.js imports this file): runs the command line of
 * src/cli/program.ts and turns its outcome into the process's exit code (EXIT in program.ts,
 * docs/cli.md). Expected failures are one line on stderr; the stack trace of an unexpected error is
 * printed only with LOG_LEVEL=debug or trace.
 */
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import { CorruptDataDirError } from '../db/pgdata-check.ts';
import { errorHint } from './error-hints.ts';
import { EXIT, KEEP_RUNNING, run } from './program.ts';

run(process.argv.slice(2)).then(
  (code) => {
    if (code !== KEEP_RUNNING) process.exit(code);
  },
  (err) => {
    if (err instanceof DataDirLockedError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(EXIT.DATA_DIR_LOCKED);
    }
    if (err instanceof CorruptDataDirError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(EXIT.DATA_DIR_DAMAGED);
    }
    const verbose = ['debug', 'trace'].includes(String(process.env.LOG_LEVEL).toLowerCase());
    // an AggregateError (a host with several addresses refusing) may have an empty message
    const message =
      (err instanceof Error && (err.message || (err as NodeJS.ErrnoException).code || err.name)) ||
      String(err);
    const hint = errorHint(err);
    process.stderr.write(
      verbose
        ? `${(err as Error)?.stack ?? message}\n`
        : `vericase: ${message.split('\n')[0]}\n${hint ? `${hint}\n` : ''}(LOG_LEVEL=debug prints the stack trace)\n`,
    );
    process.exit(EXIT.FAILED);
  },
);
