/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event the service sends, with the body it POSTs
 * (the event name, the sub-event for `X.Updated` families, the delivery context and the entity the
 * event is about) and the Standard Webhooks headers that sign it.
 */
import { SUB_EVENT_FAMILY, TOP_LEVEL_EVENTS } from '../../events/catalog.ts';

/** The entity each event family carries, and the component that describes it. */
const FAMILY_ENTITY: Record<string, { key: string; schema: string }> = {
  Case: { key: 'case', schema: 'Case' },
  Check: { key: 'check', schema: 'Check' },
  Company: { key: 'company', schema: 'Company' },
  Individual: { key: 'individual', schema: 'Individual' },
  Note: { key: 'note', schema: 'Note' },
  NoteComment: { key: 'noteComment', schema: 'NoteComment' },
  DocumentOrder: { key: 'document_order', schema: 'DocumentOrder' },
  CaseReport: { key: 'report', schema: 'CaseReport' },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const DeliveryContext = {
  type: 'object',
  required: ['timestamp', 'event_id', 'retry_count', 'remaining_retry_count', 'workspace'],
  properties: {
    timestamp: { type: 'integer', description: 'Unix time of this attempt, in seconds.' },
    event_id: { type: 'string', format: 'uuid', description: 'The same for every attempt of one event.' },
    retry_count: { type: 'integer', minimum: 0 },
    remaining_retry_count: { type: 'integer', minimum: 0 },
    workspace: {
      type: 'object',
      required: ['id', 'name'],
      properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' } },
    },
    case: { description: 'The case the event belongs to, as it is at delivery time (when there is one).' },
    company: { description: 'For check events: the checked company (id, name, country), or null.' },
    individual: {
      description: 'For check events: the checked individual (id, first and last name), or null.',
    },
    note: { description: 'For comment events: the commented note (id, author).' },
  },
};

const SIGNATURE_HEADERS = [
  { name: 'webhook-id', description: 'The event id: deduplicate on it.' },
  { name: 'webhook-timestamp', description: 'Unix seconds of the attempt; refuse old ones.' },
  {
    name: 'webhook-signature',
    description:
      '`v1,<base64 HMAC-SHA256>` of `{webhook-id}.{webhook-timestamp}.{body}` with the webhook secret (Standard Webhooks), one per active secret.',
  },
].map((h) => ({ in: 'header', required: true, schema: { type: 'string' }, ...h }));

function eventOperation(event: string, subEvents: string[]) {
  const family = event.split('.')[0];
  const entity = FAMILY_ENTITY[family];
  const properties: Record<string, unknown> = {
    event: { type: 'string', enum: [event] },
    context: ref('WebhookDeliveryContext'),
  };
  if (subEvents.length) properties.sub_event = { type: 'string', enum: subEvents };
  if (entity) properties[entity.key] = ref(entity.schema);
  return {
    post: {
      operationId: `on${event.replace('.', '')}`,
      summary: event,
      description: subEvents.length
        ? `Sent on every change of this kind; \`sub_event\` says which (${subEvents.join(', ')}). Subscribe to the event or to single sub-events.`
        : `Sent when ${family} ${event
            .split('.')[1]
            .replace(/([a-z])([A-Z])/g, '$1 $2')
            .toLowerCase()}.`,
      tags: ['Webhooks'],
      parameters: SIGNATURE_HEADERS,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { type: 'object', required: ['event', 'context'], properties },
          },
        },
      },
      responses: {
        '200': { description: 'Any 2xx acknowledges the delivery; anything else is retried with backoff.' },
      },
    },
  };
}

/** The `webhooks` object and the context schema it refers to. */
export function webhookDocs(): { webhooks: Record<string, unknown>; contextSchema: unknown } {
  const webhooks: Record<string, unknown> = {};
  for (const event of TOP_LEVEL_EVENTS) {
    // announced by the reference but never sent by this service
    if (event.startsWith('AutonomyChatRun.')) continue;
    const subs = Object.entries(SUB_EVENT_FAMILY)
      .filter(([, fam]) => fam === event)
      .map(([sub]) => sub);
    webhooks[event] = eventOperation(event, subs);
  }
  return { webhooks, contextSchema: DeliveryContext };
}
