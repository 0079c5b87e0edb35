import type { FastifyInstance, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import { READ_METHODS } from '../console-auth/permissions.ts';

/**
 * Hooks that only writes need (the audit log, Idempotency-Key), attached to the instance's write
 * routes (any method but GET, HEAD and OPTIONS) as route hooks instead of instance hooks: reads, most
 * requests, no longer pass through them (issue 17: hooks that run for every route). They run after
 * the instance's own hooks of the same kind, in the order they are added here, as instance hooks
 * registered at this point would. Must be called before the routes are declared.
 */
export function addWriteRouteHooks(
  app: FastifyInstance,
  hooks: { preHandler?: preHandlerHookHandler; onSend?: onSendHookHandler },
): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.every((m) => READ_METHODS.includes(m))) return;
    if (hooks.preHandler) route.preHandler = [...asList(route.preHandler), hooks.preHandler];
    if (hooks.onSend) route.onSend = [...asList(route.onSend), hooks.onSend];
  });
}

const asList = <T>(hook: T | T[] | undefined): T[] =>
  hook === undefined ? [] : Array.isArray(hook) ? hook : [hook];
