import dns from 'node:dns';
import net from 'node:net';
import { ConfigError } from '../config.ts';

/** The listen errors that say HOST is no address of this machine, rather than that the port is busy. */
const NOT_HERE = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EADDRNOTAVAIL', 'EAI_NONAME']);

function notHere(host: string, code: string): ConfigError {
  return new ConfigError(
    `HOST "${host}" is not an address of this machine (${code}): use 0.0.0.0 for every interface, 127.0.0.1 for this machine only`,
  );
}

/**
 * HOST, when a name, resolved before start-up does anything: Node's listen resolved it only once
 * the database was migrated and the first start's secrets printed, and failed with `getaddrinfo
 * ENOTFOUND <name>`, naming no setting (exit 1). Now one line naming HOST, exit 2, as for a value
 * the configuration refuses (src/config.ts checks its form).
 */
export async function checkListenHost(host: string): Promise<void> {
  if (net.isIP(host)) return;
  try {
    await dns.promises.lookup(host);
  } catch (err) {
    throw notHere(host, (err as NodeJS.ErrnoException).code ?? 'ENOTFOUND');
  }
}

/** A listen failure in HOST's terms when HOST is the cause (an address this machine does not have). */
export function listenFailure(err: unknown, host: string): unknown {
  const code = (err as NodeJS.ErrnoException)?.code;
  return code && NOT_HERE.has(code) ? notHere(host, code) : err;
}
