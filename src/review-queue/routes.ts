import type { App, AppContext } from '../app-context.ts';
import { listQueryWithDefault } from '../audit-log/sorted-query.ts';
import { errors } from '../http/common-schemas.ts';
import { paginated } from '../http/list-query.ts';
import { CaseCounts, caseCountQuery, countCases } from './case-counts.ts';
import {
  listQueueCases,
  listQueueChecks,
  QueueCaseItem,
  QueueCheck,
  queueCaseSpec,
  queueCheckSpec,
} from './queue.ts';

/** What the console's lists need beyond the reference API: case counts and the review queue. */
export function registerReviewQueueRoutes(app: App, ctx: AppContext): void {
  const tags = ['Review queue'];
  app.get(
    '/case-counts',
    {
      schema: {
        tags,
        summary: 'Count cases per status',
        description:
          'How many cases match the filters of GET /v1/cases (all but `status`), in all and per status, in one call (vericase extension, for the console).',
        querystring: caseCountQuery(),
        response: { 200: CaseCounts, ...errors(400) },
      },
    },
    (req) => countCases(ctx.db, req.principal.workspaceId, req.query as Record<string, unknown>),
  );
  app.get(
    '/review-queue/checks',
    {
      schema: {
        tags,
        summary: 'List the checks waiting for a review',
        description:
          'Checks in `need_review` across the workspace (checks of entities marked not relevant left out), each with its case and what it is on, longest waiting first (`sort=waiting_since`: when each entered `need_review`) unless sorted otherwise (vericase extension, for the console).',
        querystring: listQueryWithDefault(queueCheckSpec, 'waiting_since ascending (longest waiting first)'),
        response: { 200: paginated(QueueCheck), ...errors(400) },
      },
    },
    (req) => listQueueChecks(ctx.db, req.principal.workspaceId, req.query as Record<string, unknown>),
  );
  app.get(
    '/review-queue/cases',
    {
      schema: {
        tags,
        summary: 'List the cases whose reviewer has actions',
        description:
          'Cases with `reviewer_has_actions`, each with how many of its checks are in `need_review`, least recently active first unless sorted otherwise (vericase extension, for the console).',
        querystring: listQueryWithDefault(queueCaseSpec, 'last_activity_at ascending'),
        response: { 200: paginated(QueueCaseItem), ...errors(400) },
      },
    },
    (req) => listQueueCases(ctx.db, req.principal.workspaceId, req.query as Record<string, unknown>),
  );
}
