import path from 'node:path';

/** Runtime configuration, read once from the environment. Every knob is documented in the README. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | null;
  dataDir: string;
  referenceDir: string | null;
  adminToken: string | null;
  bootstrapApiKey: string | null;
  logLevel: string;
  rateLimitPerMinute: number;
  /** Shared store for the rate limit across processes; in-memory per process without it. */
  redisUrl: string | null;
  authCacheTtlMs: number;
  runWorkers: boolean;
  sandboxDelayMs: number;
  s3: { bucket: string; region: string; endpoint: string | null; forcePathStyle: boolean } | null;
  webhookAllowPrivate: boolean;
}

function int(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${value}"`);
  return Math.floor(n);
}

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must start with postgres:// or postgresql://');
  }
  return {
    port: int('PORT', env.PORT, 3000),
    host: env.HOST || '0.0.0.0',
    databaseUrl,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    referenceDir: env.VERICASE_REFERENCE_DIR ? path.resolve(env.VERICASE_REFERENCE_DIR) : null,
    adminToken: env.VERICASE_ADMIN_TOKEN || null,
    bootstrapApiKey: env.VERICASE_BOOTSTRAP_API_KEY || null,
    logLevel: env.LOG_LEVEL || 'info',
    rateLimitPerMinute: int('VERICASE_RATE_LIMIT_PER_MINUTE', env.VERICASE_RATE_LIMIT_PER_MINUTE, 6000),
    redisUrl: env.VERICASE_REDIS_URL || null,
    authCacheTtlMs: int('VERICASE_AUTH_CACHE_TTL_MS', env.VERICASE_AUTH_CACHE_TTL_MS, 5000),
    runWorkers: bool(env.VERICASE_RUN_WORKERS, true),
    sandboxDelayMs: int('VERICASE_SANDBOX_DELAY_MS', env.VERICASE_SANDBOX_DELAY_MS, 300),
    s3: env.VERICASE_S3_BUCKET
      ? {
          bucket: env.VERICASE_S3_BUCKET,
          region: env.VERICASE_S3_REGION || 'us-east-1',
          endpoint: env.VERICASE_S3_ENDPOINT || null,
          forcePathStyle: bool(env.VERICASE_S3_FORCE_PATH_STYLE, true),
        }
      : null,
    webhookAllowPrivate: bool(env.VERICASE_WEBHOOK_ALLOW_PRIVATE, false),
  };
}
