import { Type } from 'typebox';
import { SUBSCRIBABLE } from '../events/catalog.ts';
import { DateTime, NonBlank, Nullable, Uuid } from '../http/common-schemas.ts';

export const WEBHOOK_STATUSES = ['online', 'offline'] as const;
export const WEBHOOK_TYPES = ['user', 'system'] as const;
export const MAX_WEBHOOKS_PER_WORKSPACE = 50;

const EventName = Type.Enum([...SUBSCRIBABLE], {
  description:
    'An event name, a sub-event name (e.g. `Case.StatusUpdated`), `<Family>.*` (e.g. `Check.*`: every event of that family, sub-events included) or `*`.',
});
/**
 * `[]` is accepted, as the reference's `events` (required, no minItems): a dormant subscription
 * that receives nothing until a PATCH gives it events.
 */
const Events = Type.Array(EventName, { maxItems: 100, uniqueItems: true });
const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'http(s) URL receiving the POSTs' });
const Secret = Type.String({
  minLength: 16,
  maxLength: 256,
  description:
    "Signing secret. `whsec_<base64>` (Standard Webhooks; the decoded bytes are the key) or any other string of at least 16 printable ASCII characters (its bytes are the key: the Standard Webhooks libraries' raw format). Generated when not given.",
});

export const SIGNATURE_SCHEMES = ['standard_webhooks', 'hmac_sha256_hex'] as const;
/** The header the reference product's receivers read a hex signature from. */
export const DEFAULT_HEX_SIGNATURE_HEADER = 'dotfile-signature';
/**
 * Headers a delivery sets itself (or HTTP reserves): a hex signature put in one of them replaced it
 * (`webhook-id` then changed on every attempt, `content-type` no longer said JSON).
 */
export const RESERVED_SIGNATURE_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'content-length',
  'content-type',
  'expect',
  'host',
  'keep-alive',
  'te',
  'traceparent',
  'tracestate',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'user-agent',
  'webhook-id',
  'webhook-signature',
  'webhook-timestamp',
]);
const Signature = Type.Enum([...SIGNATURE_SCHEMES], {
  description:
    '`standard_webhooks` (default): `webhook-id`, `webhook-timestamp` and `webhook-signature` headers per the Standard Webhooks specification. `hmac_sha256_hex`: the lower-case hex HMAC-SHA256 of the raw body, keyed with the UTF-8 bytes of `secret` as shown, in the header `signature_header`.',
});
const SignatureHeader = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[A-Za-z0-9-]+$',
  description: `Header carrying an hmac_sha256_hex signature (default \`${DEFAULT_HEX_SIGNATURE_HEADER}\`, as receivers written for the reference product expect).`,
});

export const Webhook = Type.Object({
  id: Uuid,
  name: Type.String(),
  status: Type.Enum([...WEBHOOK_STATUSES]),
  type: Type.Enum([...WEBHOOK_TYPES]),
  events: Type.Array(Type.String()),
  url: Type.String(),
  secret: Type.String({ description: 'The current signing secret.' }),
  signature: Signature,
  signature_header: Nullable(SignatureHeader),
  previous_secret_expires_at: Nullable(
    Type.String({
      format: 'date-time',
      description: 'After a rotation: until when deliveries are also signed with the previous secret.',
    }),
  ),
  created_at: DateTime,
  updated_at: DateTime,
});

export const WebhookCreate = Type.Object(
  {
    name: Type.Optional(NonBlank({ maxLength: 200 })),
    status: Type.Optional(Type.Enum([...WEBHOOK_STATUSES], { default: 'online' })),
    type: Type.Optional(Type.Enum([...WEBHOOK_TYPES], { default: 'user' })),
    url: Url,
    events: Events,
    secret: Type.Optional(Secret),
    signature: Type.Optional(Signature),
    signature_header: Type.Optional(Nullable(SignatureHeader)),
  },
  { additionalProperties: false },
);

export const WebhookUpdate = Type.Object(
  {
    name: Type.Optional(NonBlank({ maxLength: 200 })),
    status: Type.Optional(Type.Enum([...WEBHOOK_STATUSES])),
    type: Type.Optional(Type.Enum([...WEBHOOK_TYPES])),
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    secret: Type.Optional(Secret),
    signature: Type.Optional(Signature),
    signature_header: Type.Optional(Nullable(SignatureHeader)),
  },
  { additionalProperties: false },
);

export const RotateSecret = Type.Object(
  {
    grace_period_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 604_800,
        default: 86_400,
        description:
          'How long deliveries are also signed with the previous secret (default 24 h, at most 7 days).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Replay = Type.Object(
  {
    // a day as the list filters take it (`yyyy-MM-dd`: its start, UTC) or an instant
    since: Type.String({
      format: 'date-or-date-time',
      description:
        'Re-send every matching event recorded at or after this: an ISO 8601 date-time, or `yyyy-MM-dd` for the start of that day (UTC).',
    }),
    until: Type.Optional(
      Type.String({
        format: 'date-or-date-time',
        description:
          'Only events recorded before this: an ISO 8601 date-time, or `yyyy-MM-dd` for the start of that day (UTC).',
      }),
    ),
  },
  { additionalProperties: false },
);
export const ReplayResult = Type.Object({
  webhook_id: Uuid,
  deliveries: Type.Integer({ description: 'Deliveries created (one per matching event, at most 10,000).' }),
  has_more: Type.Boolean({
    description:
      'Whether matching events were left out by the limit: replay again from `next_since` for them.',
  }),
  next_since: Nullable(
    Type.String({
      format: 'date-time',
      description:
        'When more remain: the recorded time of the first event left out (the `since` of the next replay; events recorded at that same time may be sent again, deduplicate on `event_id`). Null otherwise.',
    }),
  ),
});

export const WebhookLogAttempt = Type.Object({
  type: Type.Enum(['first_call', 'manual_retry', 'automatic_retry']),
  endpoint: Type.String(),
  status_code: Type.Integer({ description: 'HTTP status returned; 0 when no response arrived.' }),
  request_headers: Type.Record(Type.String(), Type.String()),
  response_headers: Nullable(Type.Record(Type.String(), Type.String())),
  response_body: Nullable(Type.String({ description: 'First 4 KB of the response body.' })),
  error: Nullable(Type.String({ description: 'Why no usable response arrived (timeout, refused, ...).' })),
  duration_ms: Type.Integer(),
  attempted_at: DateTime,
});

export const DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'failed', 'pending_offline'] as const;

export const WebhookLog = Type.Object({
  id: Uuid,
  event: Type.String({
    description: 'The event that triggered this delivery (the sub-event name for `X.Updated` sub-events).',
  }),
  status: Type.Enum([...DELIVERY_STATUSES], {
    description:
      '`pending` (waiting for its next attempt), `sending`, `delivered`, `failed` (automatic retries exhausted), `pending_offline` (kept while the webhook is offline).',
  }),
  status_code: Type.Integer({
    description:
      'HTTP status of the latest attempt; 0 when no response arrived, or before the first attempt.',
  }),
  endpoint: Type.String(),
  retry_count: Type.Integer({ description: 'Attempts after the first one.' }),
  case_id: Nullable(Uuid),
  individual_id: Nullable(Uuid),
  company_id: Nullable(Uuid),
  webhook_id: Uuid,
  event_id: Uuid,
  created_at: DateTime,
  last_attempt_at: Type.String({
    format: 'date-time',
    description:
      'When the latest attempt was made; before the first attempt (`attempts` empty), the same as created_at.',
  }),
  payload: Type.Record(Type.String(), Type.Unknown(), {
    description: 'The JSON body delivered (context values of the latest attempt).',
  }),
  next_retry_at: Nullable(DateTime),
  attempts: Type.Array(WebhookLogAttempt, { description: 'Every attempt, most recent first.' }),
});
