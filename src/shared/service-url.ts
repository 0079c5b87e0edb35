import type { Config } from '../config.ts';

/**
 * The base of every link the service issues (portal links, the portal's `url`, id_verification and
 * signature links, a case report's `download_url`, the console address printed at start):
 * VERICASE_PUBLIC_URL, else the address the service listens on (`http://localhost:3000` for the
 * default 0.0.0.0). Never the request's Host header: a caller could name any host there, and a link
 * stored in a check or sent in a webhook would then send whoever follows it (with their API key, for
 * a report) to that host.
 */
export function serviceBaseUrl(config: Pick<Config, 'publicUrl' | 'host' | 'port'>): string {
  if (config.publicUrl) return config.publicUrl;
  const wildcard = config.host === '0.0.0.0' || config.host === '::' || config.host === '';
  const host = wildcard ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}
