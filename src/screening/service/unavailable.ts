import type { AppContext } from '../../app-context.ts';
import { ApiError } from '../../http/errors.ts';
import { watchIntervalMs } from './module.ts';
import { HOW_TO_LOAD_LISTS } from './screening-service.ts';

/**
 * The 503 of an endpoint that needs the sanctions lists while none is loaded: the message says why
 * and how to fix it; `retry-after` says when to come back (a few seconds while they load).
 */
export function screeningUnavailable(ctx: AppContext): ApiError {
  const s = ctx.screening;
  const err = new ApiError(
    503,
    s?.unavailableMessage() ?? `Screening is not running. To load lists, ${HOW_TO_LOAD_LISTS}.`,
  );
  err.retryAfterSeconds = s?.retryAfterSeconds(Math.round(watchIntervalMs() / 1000));
  return err;
}
