import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import { errors } from '../http/common-schemas.ts';
import { readIfMatch } from '../http/conditional.ts';
import { createCaseReview } from './create-case-review.ts';
import { CaseReview, CaseReviewCreate } from './schemas.ts';

const CaseUuidParam = Type.Object({ id: Type.String({ format: 'uuid', description: 'Id of the case' }) });

export function registerReviewRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/cases/:id/reviews',
    {
      schema: {
        tags: ['Cases'],
        summary: 'Create a case review',
        description:
          'Decides the case: its status becomes the review status. For every status (the spec computes it ' +
          'unless overridden), next_review_at defaults to the review day plus the workspace frequency for the ' +
          'case risk level; give a date to override it, or `null` to schedule none. A comment is required when the workspace setting ' +
          '`case_review.comment_mandatory` is on. Emits `Case.ReviewConfirmed`, and `Case.Updated` ' +
          '(`Case.StatusUpdated`) when the status changes. With `If-Match` (the ETag of GET /v1/cases/{id} as it was ' +
          'read), a case that changed since (another review, a check that moved its flags, an update) is a 412 and ' +
          'nothing is recorded.',
        params: CaseUuidParam,
        body: CaseReviewCreate,
        response: { 201: CaseReview, ...errors(400, 404, 412) },
      },
    },
    async (req, reply) => {
      const condition = readIfMatch(req.headers['if-match']);
      const review = await createCaseReview(
        ctx.db,
        req.principal.workspaceId,
        req.params.id,
        req.body,
        condition,
      );
      return reply.status(201).send(review);
    },
  );
}
