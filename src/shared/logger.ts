/**
 * The service's logger: pino, JSON lines by default (for machines: one object a line, with the
 * request id), or a readable colored form for a person at a terminal with LOG_FORMAT=pretty
 * (pino-pretty, loaded only then). LOG_LEVEL picks the level. Both are read by src/config.ts.
 */
import { createRequire } from 'node:module';
import pino from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LoggerOptions {
  level: string;
  format: LogFormat;
  /** 1 (stdout, the server's log) or 2 (stderr: command-line tools whose stdout is their JSON result). */
  fd?: 1 | 2;
  /**
   * Write each line before returning (the default on stderr: a one-shot command's last line before
   * process.exit is never lost), or hand lines to an asynchronous writer that batches them while a
   * write is in flight (the default on stdout, the server's log: no blocking write(2) per line on
   * the request path). pino flushes that writer synchronously when the process exits, so only a
   * SIGKILL can lose lines.
   */
  sync?: boolean;
}

type PrettyFactory = (opts: Record<string, unknown>) => pino.DestinationStream;
const require = createRequire(import.meta.url);

export function createLogger({ level, format, fd = 1, sync = fd === 2 }: LoggerOptions): pino.Logger {
  if (format === 'pretty') {
    const pretty = require('pino-pretty') as PrettyFactory;
    const stream = fd === 1 ? process.stdout : process.stderr;
    return pino(
      { level },
      pretty({
        destination: fd,
        // synchronous: a line logged just before process.exit is not lost
        sync: true,
        colorize: Boolean(stream.isTTY) && !process.env.NO_COLOR,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname',
      }),
    );
  }
  return pino({ level }, pino.destination({ fd, sync }));
}
