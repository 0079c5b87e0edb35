import type { FastifyBaseLogger } from 'fastify';

/** How long the requests an outage refuses are counted before their count is logged. */
export const OUTAGE_LOG_WINDOW_MS = 10_000;

interface Episode {
  /** When the last request of this outage was refused: a quiet window ends the episode. */
  last: number;
  /** Requests refused since the last line, and the first of them's time. */
  refused: number;
  since: number;
  flush: NodeJS.Timeout | null;
  level: 'warn' | 'error';
}

/**
 * The log of the requests answered 503 because the database (or the disk) is out: the first request
 * of an outage is logged with its error and stack, the ones after it are counted and logged as one
 * line every OUTAGE_LOG_WINDOW_MS while it lasts. Before, each was an error line with a stack:
 * clients that ignored `retry-after` made 260,000 requests in 30 s of an outage, ~500 MB of log (issue
 * 9's drill). The request log (LOG_REQUESTS) still has a line per request, as for any answer.
 *
 * Per process and per kind of outage (the log line's text); a window without a refused request ends
 * the episode, and the next refusal is logged in full again.
 */
export class OutageLog {
  readonly #episodes = new Map<string, Episode>();
  /** The counts' log: the server's, as they are no single request's. */
  readonly #log: FastifyBaseLogger;

  constructor(log: FastifyBaseLogger) {
    this.#log = log;
  }

  /**
   * A request refused for `what` (its log line's text): `requestLog` is its own log. `level`: error
   * for what an operator must act on; warn for what passes by itself (a stalled bucket).
   */
  refused(
    requestLog: FastifyBaseLogger,
    what: string,
    err: unknown,
    level: 'warn' | 'error' = 'error',
    now = Date.now(),
  ): void {
    const episode = this.#episodes.get(what);
    if (!episode || now - episode.last > OUTAGE_LOG_WINDOW_MS) {
      if (episode?.flush) this.#report(what, episode);
      this.#episodes.set(what, { last: now, refused: 0, since: now, flush: null, level });
      requestLog[level](
        { err },
        `${what} (the requests it refuses are counted, one line every ${OUTAGE_LOG_WINDOW_MS / 1000} s)`,
      );
      return;
    }
    episode.last = now;
    if (episode.refused++ === 0) {
      episode.since = now;
      episode.flush = setTimeout(() => this.#report(what, episode), OUTAGE_LOG_WINDOW_MS);
      episode.flush.unref();
    }
  }

  #report(what: string, episode: Episode): void {
    if (episode.flush) clearTimeout(episode.flush);
    episode.flush = null;
    if (!episode.refused) return;
    this.#log[episode.level](
      { refused: episode.refused, since: new Date(episode.since).toISOString() },
      `${what}: ${episode.refused} more requests answered 503`,
    );
    episode.refused = 0;
  }
}
