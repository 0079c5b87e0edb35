import type { WebhookAttemptRow, WebhookDeliveryRow, WebhookRow } from '../db/schema.ts';
import { iso, isoOrNull } from '../shared/time.ts';
import { DEFAULT_HEX_SIGNATURE_HEADER } from './schemas.ts';
import { retryCounters } from './tuning.ts';

export function presentWebhook(w: WebhookRow) {
  const graceActive =
    w.previous_secret_expires_at && new Date(w.previous_secret_expires_at).getTime() > Date.now();
  return {
    id: w.id,
    name: w.name,
    status: w.status as 'online' | 'offline',
    type: w.type as 'user' | 'system',
    events: w.events,
    url: w.url,
    secret: w.secret,
    signature: w.signature as 'standard_webhooks' | 'hmac_sha256_hex',
    signature_header:
      w.signature === 'hmac_sha256_hex' ? (w.signature_header ?? DEFAULT_HEX_SIGNATURE_HEADER) : null,
    previous_secret_expires_at: graceActive ? isoOrNull(w.previous_secret_expires_at) : null,
    created_at: iso(w.created_at),
    updated_at: iso(w.updated_at),
  };
}

export function presentAttempt(a: WebhookAttemptRow) {
  return {
    type: a.type as 'first_call' | 'manual_retry' | 'automatic_retry',
    endpoint: a.endpoint,
    status_code: a.status_code,
    request_headers: a.request_headers,
    response_headers: a.response_headers,
    response_body: a.response_body,
    error: a.error,
    duration_ms: a.duration_ms,
    attempted_at: iso(a.attempted_at),
  };
}

/** A delivery as a webhook log; `payload` is the body of its latest attempt. */
export function presentLog(d: WebhookDeliveryRow, endpoint: string, attempts: WebhookAttemptRow[]) {
  const payload = JSON.parse(d.payload) as { context: Record<string, unknown> };
  const counters = retryCounters(d);
  const retryCount = counters.retry_count;
  const latest = attempts[0];
  if (latest) {
    const headerTs = Number((latest.request_headers as Record<string, string>)['webhook-timestamp']);
    if (Number.isFinite(headerTs)) payload.context.timestamp = headerTs;
    Object.assign(payload.context, counters);
  }
  return {
    id: d.id,
    event: d.event,
    status: d.status as 'pending' | 'sending' | 'delivered' | 'failed' | 'pending_offline',
    // never null, as the reference's: before the first attempt, 0 (no answer) and the log's created_at
    status_code: d.last_status_code ?? 0,
    endpoint: latest?.endpoint ?? endpoint,
    retry_count: retryCount,
    case_id: d.case_id,
    individual_id: d.individual_id,
    company_id: d.company_id,
    webhook_id: d.webhook_id,
    event_id: d.event_id,
    created_at: iso(d.event_created_at),
    last_attempt_at: iso(d.last_attempt_at ?? d.event_created_at),
    payload,
    next_retry_at: d.status === 'pending' ? isoOrNull(d.next_attempt_at) : null,
    attempts: attempts.map(presentAttempt),
  };
}
