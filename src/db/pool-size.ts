import os from 'node:os';

/** The application pool's size when VERICASE_DB_POOL_MAX is not set and the database is elsewhere. */
export const REMOTE_POOL_MAX = 10;

/**
 * The default size of the application's PostgreSQL pool (VERICASE_DB_POOL_MAX unset).
 *
 * With PostgreSQL on the same machine, its backends and this process share the CPUs, and a
 * connection beyond two per CPU only adds backends taking turns on them: on a 2-core machine a pool
 * of 4 served the slow list pages with a lower p99 and at least as many requests a second as a
 * pool of 10, and creates at the same rate (docs/performance.md, session 25). So a local database
 * gets two connections per CPU of this machine, at most REMOTE_POOL_MAX. A database elsewhere
 * (another host, a container reached by its name) has CPUs we cannot see and a network's latency
 * in each query, so it keeps REMOTE_POOL_MAX.
 */
export function defaultPoolMax(
  databaseUrl: string,
  pgHost: string | undefined,
  cpus = os.availableParallelism(),
): number {
  return isLocalDatabase(databaseUrl, pgHost) ? Math.min(REMOTE_POOL_MAX, 2 * cpus) : REMOTE_POOL_MAX;
}

/**
 * Whether the connection string reaches PostgreSQL on this machine: a loopback host (`localhost`,
 * 127.0.0.0/8, `::1`) or a Unix socket (a host that is a directory, in the URL's host or its
 * `host` parameter). A URL without a host uses PGHOST, else localhost, as the driver does.
 */
export function isLocalDatabase(databaseUrl: string, pgHost: string | undefined): boolean {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return false;
  }
  const host = url.searchParams.get('host') || decodeURIComponent(url.hostname) || pgHost || 'localhost';
  const h = host.toLowerCase();
  return (
    h.startsWith('/') || h === 'localhost' || h === '::1' || h === '[::1]' || /^127(\.\d{1,3}){3}$/.test(h)
  );
}
