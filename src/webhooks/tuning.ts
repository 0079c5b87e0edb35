/**
 * Delivery knobs. Defaults are the documented behaviour (docs/webhooks.md); the environment
 * variables exist for tests and benchmarks (short backoff, a low offline threshold). The object is
 * read on every use, so a test can also change it in place.
 */
/** The variables `num` reads, for checkWebhookTuning. */
const TUNING_VARIABLES: string[] = [];

function num(name: string, fallback: number): number {
  TUNING_VARIABLES.push(name);
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  // a bad value is refused by loadConfig (checkWebhookTuning) before anything runs, as a usage
  // error; thrown here, at import, it ended the process before the command line was read
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

/** Throws naming the first VERICASE_WEBHOOK_* variable that is not a non-negative number. */
export function checkWebhookTuning(env: NodeJS.ProcessEnv): void {
  for (const name of TUNING_VARIABLES) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  }
}

export const webhookTuning = {
  /** Scale of the retry schedule: the first retry comes after about this long (default 10 s). */
  retryBaseMs: num('VERICASE_WEBHOOK_RETRY_BASE_MS', 10_000),
  /** Upper bound of one retry delay (default: none beyond the schedule). */
  retryMaxMs: num('VERICASE_WEBHOOK_RETRY_MAX_MS', Number.POSITIVE_INFINITY),
  /** Consecutive failed attempts (no success in between) before a webhook goes offline. */
  offlineAfterFailures: num('VERICASE_WEBHOOK_OFFLINE_AFTER_FAILURES', 50),
  /** ... and the failing streak must also have lasted this long (default 1 h), within 24 h. */
  offlineMinStreakMs: num('VERICASE_WEBHOOK_OFFLINE_MIN_STREAK_MS', 3_600_000),
  /** Polling period of the dispatcher (outbox and due retries) while there is work about. */
  pollMs: num('VERICASE_WEBHOOK_POLL_MS', 50),
  /**
   * Its period after a second without work (events recorded in the process, or announced by
   * another, wake it sooner; a retry or lease falling due sooner shortens it).
   */
  idlePollMs: num('VERICASE_WEBHOOK_IDLE_POLL_MS', 1000),
  /** Per-attempt timeout: a 2xx must arrive within this. */
  timeoutMs: num('VERICASE_WEBHOOK_TIMEOUT_MS', 10_000),
  /** A claimed delivery whose outcome was not recorded within this is attempted again (its process died). */
  leaseMs: num('VERICASE_WEBHOOK_LEASE_MS', 60_000),
  /** Concurrent requests per process. */
  maxInFlight: num('VERICASE_WEBHOOK_CONCURRENCY', 256),
  /**
   * Concurrent requests per workspace in one process: a workspace whose endpoints hang holds at most
   * this many of the process's slots, the rest stay free for the other workspaces.
   */
  workspaceMaxInFlight: num('VERICASE_WEBHOOK_WORKSPACE_CONCURRENCY', 64),
  /**
   * Deliveries one webhook holds claimed in one process (sent one at a time, in order: engine.ts):
   * a hanging endpoint leaves its workspace's other webhooks room.
   */
  webhookMaxInFlight: num('VERICASE_WEBHOOK_WEBHOOK_CONCURRENCY', 32),
  /** Most deliveries one replay call creates (POST /v1/webhooks/{id}/replay). */
  replayMax: num('VERICASE_WEBHOOK_REPLAY_MAX', 10_000),
  /** The dispatcher vacuums the outbox after this many dispatched events (or a minute after any). */
  outboxVacuumEvents: num('VERICASE_WEBHOOK_OUTBOX_VACUUM_EVENTS', 20_000),
};

/**
 * Retry delays as multiples of retryBaseMs: with the default 10 s base, 10 s, 1 min, 5 min, 30 min,
 * 1 h, 3 h, 6 h, 12 h: the last automatic attempt comes about 23 h after the first.
 */
export const RETRY_FACTORS = [1, 6, 30, 180, 360, 1080, 2160, 4320] as const;
export const MAX_AUTOMATIC_RETRIES = RETRY_FACTORS.length;

/** Automatic retries a delivery has had: its attempts after the first, less the manual ones. */
export function automaticRetriesDone(d: { attempt_count: number; manual_retry_count: number }): number {
  return Math.max(0, d.attempt_count - 1 - d.manual_retry_count);
}

/**
 * The context's counters as the reference defines them: `retry_count` every retry (automatic or
 * manual; 0 for the first call), `remaining_retry_count` the automatic retries still to come.
 */
export function retryCounters(d: { attempt_count: number; manual_retry_count: number }) {
  return {
    retry_count: Math.max(0, d.attempt_count - 1),
    remaining_retry_count: Math.max(0, MAX_AUTOMATIC_RETRIES - automaticRetriesDone(d)),
  };
}
/** Largest response body kept in the attempt log. */
export const RESPONSE_BODY_CAP = 4096;

/** Delay before retry number `retry` (1-based), with ±20 % jitter. */
export function retryDelayMs(retry: number, random = Math.random): number {
  const factor = RETRY_FACTORS[Math.min(retry, RETRY_FACTORS.length) - 1] ?? 1;
  const base = Math.min(webhookTuning.retryBaseMs * factor, webhookTuning.retryMaxMs);
  return Math.round(base * (0.8 + 0.4 * random()));
}
