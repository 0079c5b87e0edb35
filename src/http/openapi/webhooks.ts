/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event the service sends, with the body it POSTs
 * (the event name, the sub-event for `X.Updated` families, the delivery context and the objects the
 * event carries, keyed as src/webhooks/build-deliveries.ts writes them) and the Standard Webhooks
 * headers that sign it. test/compat-webhook-payloads.test.ts validates real deliveries against it.
 */
import type { TSchema } from 'typebox';
import { CHECK_TYPE_DEFINITIONS } from '../../checks/registry.ts';
import { CompanyListItem } from '../../companies/schemas.ts';
import { SUB_EVENT_FAMILY, TOP_LEVEL_EVENTS } from '../../events/catalog.ts';
import { IndividualListItem } from '../../individuals/schemas.ts';
import { checkSchemaName } from './components.ts';

type Json = Record<string, unknown>;

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
/** A TypeBox schema as plain JSON (its symbols dropped), for a body written inline. */
const plain = (schema: TSchema): Json => JSON.parse(JSON.stringify(schema));
const nullable = (schema: Json): Json => ({ anyOf: [schema, { type: 'null' }] });

/**
 * Events the catalog lets a webhook subscribe to (the reference announces them) that this service
 * never records, so never sends: listing them here would promise bodies nobody receives.
 */
const NEVER_SENT: ReadonlySet<string> = new Set([
  'AutonomyChatRun.Completed',
  'AutonomyChatRun.Failed',
  'Case.ReviewUpdated',
  'Note.Updated',
  'Note.Deleted',
  'NoteComment.Updated',
  'NoteComment.Deleted',
]);

/**
 * A case event's case: the detailed case as it is at delivery (companies, individuals and their
 * checks); a case deleted before its event is delivered is sent as the event recorded it.
 */
const detailedCase: Json = {
  anyOf: [ref('CaseDetailed'), ref('Case')],
  description:
    'The case with its companies, individuals and their checks as they are when the event is delivered; a case deleted before delivery: the case as the event recorded it.',
};

/** Every check type's own schema, told apart by `type`. */
const anyCheck = (): Json => ({
  oneOf: CHECK_TYPE_DEFINITIONS.map((def) => ref(checkSchemaName(def.type))),
  discriminator: {
    propertyName: 'type',
    mapping: Object.fromEntries(
      CHECK_TYPE_DEFINITIONS.map((def) => [def.type, `#/components/schemas/${checkSchemaName(def.type)}`]),
    ),
  },
});

/** What an event's body carries besides `event`, `sub_event` and `context`. */
interface Carried {
  required: Record<string, Json>;
  optional?: Record<string, Json>;
}

function carried(event: string): Carried {
  const [family] = event.split('.');
  switch (event) {
    case 'Case.Deleted':
      return {
        required: {
          case: {
            allOf: [
              ref('Case'),
              {
                type: 'object',
                required: ['permanent'],
                properties: {
                  permanent: {
                    type: 'boolean',
                    description: 'true: the case and its data are erased for good; false: moved to the bin.',
                  },
                },
              },
            ],
          },
        },
      };
    case 'Case.ReviewConfirmed':
      return { required: { case: detailedCase, case_review: ref('CaseReview') } };
    case 'Case.Updated':
      return {
        required: { case: detailedCase },
        optional: {
          risk: { ...ref('Risk'), description: 'With `Case.RiskUpdated`: the risk just assessed.' },
          case_relation: {
            allOf: [
              ref('CaseRelation'),
              {
                type: 'object',
                properties: {
                  deleted: {
                    type: 'boolean',
                    description: 'Present and true when the relation was removed.',
                  },
                },
              },
            ],
            description: 'With `Case.RelationsUpdated`: the relation added, changed or removed.',
          },
        },
      };
    case 'Case.ClientPortalWaitStepTriggered':
      return {
        required: {
          case: detailedCase,
          client_portal: {
            type: 'object',
            required: ['id', 'name', 'wait_step'],
            properties: {
              id: { type: 'string', format: 'uuid' },
              name: { type: 'string' },
              wait_step: { type: 'object', description: 'The portal step the case now waits on.' },
            },
          },
        },
      };
    case 'Company.Deleted':
      return { required: { company: plain(CompanyListItem) } };
    case 'Individual.Deleted':
      return { required: { individual: plain(IndividualListItem) } };
    case 'NoteComment.Created':
      return { required: { noteComment: ref('NoteComment'), note: ref('Note') } };
  }
  switch (family) {
    case 'Case':
      return { required: { case: detailedCase } };
    case 'Check':
      return { required: { check: anyCheck() } };
    case 'Company':
      return { required: { company: ref('Company') } };
    case 'Individual':
      return { required: { individual: ref('Individual') } };
    case 'Note':
      return { required: { note: ref('Note') } };
    case 'DocumentOrder':
      return { required: { document_order: ref('DocumentOrder') } };
    case 'CaseReport':
      return { required: { report: ref('CaseReport') } };
  }
  throw new Error(`webhooks: no body described for ${event}`);
}

const idOnly = (extra: Record<string, Json>): Json => ({
  type: 'object',
  required: ['id', ...Object.keys(extra)],
  properties: { id: { type: 'string', format: 'uuid' }, ...extra },
});
const text = { type: 'string' };

const DeliveryContext = {
  type: 'object',
  required: ['timestamp', 'event_id', 'retry_count', 'remaining_retry_count', 'workspace'],
  properties: {
    timestamp: { type: 'integer', description: 'Unix time of this attempt, in seconds.' },
    event_id: {
      type: 'string',
      format: 'uuid',
      description:
        "The event's id: the same in every delivery of it (retries, replays, other webhooks). Deduplicate on it.",
    },
    retry_count: { type: 'integer', minimum: 0 },
    remaining_retry_count: { type: 'integer', minimum: 0 },
    workspace: idOnly({ name: text }),
    case: {
      description:
        'Events of a case: the case as it is at delivery time (as the event recorded it when deleted since), with the client portal it was shared through.',
      anyOf: [
        {
          allOf: [
            ref('Case'),
            {
              type: 'object',
              required: ['client_portal'],
              properties: {
                client_portal: nullable(idOnly({ name: text, type: { type: 'string', enum: ['KYB'] } })),
              },
            },
          ],
        },
        { type: 'null' },
      ],
    },
    company: {
      description: 'Check events: the checked company, or null.',
      ...nullable(idOnly({ name: text, country: nullable({ type: 'string' }) })),
    },
    individual: {
      description: 'Check events: the checked individual, or null.',
      ...nullable(idOnly({ first_name: nullable(text), last_name: nullable(text) })),
    },
    note: {
      description: 'Comment events: the commented note.',
      ...nullable(idOnly({ author: nullable({ type: 'object' }) })),
    },
  },
};

const SIGNATURE_HEADERS = [
  {
    name: 'webhook-id',
    description:
      "`msg_<delivery id>` (the id of the webhook log): the same for every attempt of one delivery (automatic and manual retries), a new one for each other delivery of the event (a replay). Deduplicate on the body's `context.event_id`, not on it.",
  },
  { name: 'webhook-timestamp', description: 'Unix seconds of the attempt; refuse old ones.' },
  {
    name: 'webhook-signature',
    description:
      '`v1,<base64 HMAC-SHA256>` of `{webhook-id}.{webhook-timestamp}.{body}` with the webhook secret (Standard Webhooks), one per active secret.',
  },
].map((h) => ({ in: 'header', required: true, schema: { type: 'string' }, ...h }));

function eventOperation(event: string, subEvents: string[]) {
  const family = event.split('.')[0];
  const body = carried(event);
  const properties: Json = {
    event: { type: 'string', enum: [event] },
    context: ref('WebhookDeliveryContext'),
    ...body.required,
    ...body.optional,
  };
  const required = ['event', 'context', ...Object.keys(body.required)];
  // absent on a change without a sub-event of its own (a case shared through a portal, a contact's
  // action in it): those are plain `Case.Updated`
  if (subEvents.length) properties.sub_event = { type: 'string', enum: subEvents };
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
            schema: { type: 'object', required, properties, additionalProperties: false },
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
    if (NEVER_SENT.has(event)) continue;
    const subs = Object.entries(SUB_EVENT_FAMILY)
      .filter(([, fam]) => fam === event)
      .map(([sub]) => sub);
    webhooks[event] = eventOperation(event, subs);
  }
  return { webhooks, contextSchema: DeliveryContext };
}
