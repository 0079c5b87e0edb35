import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import { signalWebhookWork } from '../events/outbox-signal.ts';
import { errors } from '../http/common-schemas.ts';
import { listQuerySchema, paginated } from '../http/list-query.ts';
import { createWebhook } from './create-webhook.ts';
import { deleteWebhook } from './delete-webhook.ts';
import { getWebhook } from './get-webhook.ts';
import { listWebhookLogs, webhookLogListSpec } from './list-webhook-logs.ts';
import { listWebhooks, webhookListSpec } from './list-webhooks.ts';
import { replayWebhook } from './replay-webhook.ts';
import { retryWebhookLog } from './retry-webhook-log.ts';
import { rotateWebhookSecret } from './rotate-secret.ts';
import {
  Replay,
  ReplayResult,
  RotateSecret,
  Webhook,
  WebhookCreate,
  WebhookLog,
  WebhookUpdate,
} from './schemas.ts';
import { updateWebhook } from './update-webhook.ts';

const WebhookIdParam = Type.Object({ id: Type.String({ format: 'uuid', description: 'Id of the webhook' }) });
const LogIdParam = Type.Object({ id: Type.String({ format: 'uuid', description: 'Id of the webhook log' }) });

export function registerWebhookRoutes(app: App, ctx: AppContext): void {
  const tags = ['Webhooks'];
  const allowPrivate = () => ctx.config.webhookAllowPrivate;
  // after the use case committed: this process's loop takes a turn at once, other processes' loops
  // hear of it (src/events/outbox-signal.ts)
  const wake = () => signalWebhookWork(true);

  app.get(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'List webhooks',
        querystring: listQuerySchema(webhookListSpec),
        response: { 200: paginated(Webhook), ...errors(400) },
      },
    },
    (req) => listWebhooks(ctx.db, req.principal.workspaceId, req.query as Record<string, unknown>),
  );

  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'Create a webhook',
        description:
          'Subscribes a URL to events (names, sub-event names, `<Family>.*` or `*`). The signing secret is generated (`whsec_...`) when not given. At most 50 webhooks per workspace.',
        body: WebhookCreate,
        response: { 201: Webhook, ...errors(400) },
      },
    },
    async (req, reply) =>
      reply
        .status(201)
        .send(await createWebhook(ctx.db, req.principal.workspaceId, req.body, allowPrivate())),
  );

  app.get(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Retrieve a webhook',
        params: WebhookIdParam,
        response: { 200: Webhook, ...errors(400, 404) },
      },
    },
    (req) => getWebhook(ctx.db, req.principal.workspaceId, req.params.id),
  );

  app.patch(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Update a webhook',
        description:
          'Setting `status` to `online` on an offline webhook clears its failing streak and resumes the deliveries kept while it was offline. ' +
          'The status it already has changes nothing: `online` sent to an online webhook keeps its failing streak and its `updated_at`.',
        params: WebhookIdParam,
        body: WebhookUpdate,
        response: { 200: Webhook, ...errors(400, 404) },
      },
    },
    async (req) => {
      const out = await updateWebhook(
        ctx.db,
        req.principal.workspaceId,
        req.params.id,
        req.body,
        allowPrivate(),
      );
      wake();
      return out;
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Delete a webhook',
        params: WebhookIdParam,
        response: { 204: Type.Null(), ...errors(400, 404) },
      },
    },
    async (req, reply) => {
      await deleteWebhook(ctx.db, req.principal.workspaceId, req.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      schema: {
        tags,
        summary: 'Rotate the signing secret',
        description:
          'Generates a new secret and returns it. During the grace period (default 24 h) deliveries carry two signatures in `webhook-signature`: the new secret first, then the previous one.',
        params: WebhookIdParam,
        body: RotateSecret,
        response: { 200: Webhook, ...errors(400, 404) },
      },
    },
    (req) =>
      rotateWebhookSecret(
        ctx.db,
        req.principal.workspaceId,
        req.params.id,
        req.body.grace_period_seconds ?? 86_400,
      ),
  );

  app.post(
    '/webhooks/:id/replay',
    {
      schema: {
        tags,
        summary: 'Replay events to a webhook',
        description:
          'Re-sends every event of the workspace recorded since `since` (and before `until`) that the webhook subscribes to, as new deliveries: a new `webhook-id`, the same `context.event_id`. At most 10,000 per call: when more remain, `has_more` is true and `next_since` is where to continue.',
        params: WebhookIdParam,
        body: Replay,
        response: { 202: ReplayResult, ...errors(400, 404) },
      },
    },
    async (req, reply) => {
      const out = await replayWebhook(
        ctx.db,
        req.principal.workspaceId,
        req.params.id,
        req.body.since,
        req.body.until,
      );
      wake();
      return reply.status(202).send(out);
    },
  );

  app.get(
    '/webhook-logs',
    {
      schema: {
        tags,
        summary: 'List webhook logs',
        description:
          'One log per delivery (an event sent to one webhook) with every attempt, most recent first. Sorted by `created_at` descending by default. Kept 30 days.',
        querystring: listQuerySchema(webhookLogListSpec),
        response: { 200: paginated(WebhookLog), ...errors(400) },
      },
    },
    (req) => listWebhookLogs(ctx.db, req.principal.workspaceId, req.query as Record<string, unknown>),
  );

  app.post(
    '/webhook-logs/:id/retry',
    {
      schema: {
        tags,
        summary: 'Retry a webhook delivery now',
        description: 'Queues a `manual_retry` attempt of the delivery (same `webhook-id` and `event_id`).',
        params: LogIdParam,
        response: { 202: WebhookLog, ...errors(400, 404, 409) },
      },
    },
    async (req, reply) => {
      const out = await retryWebhookLog(ctx.db, req.principal.workspaceId, req.params.id);
      wake();
      return reply.status(202).send(out);
    },
  );
}
