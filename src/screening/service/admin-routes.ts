import { Type } from 'typebox';
import type { App, AppContext } from '../../app-context.ts';
import { errors, Nullable } from '../../http/common-schemas.ts';
import { ApiError } from '../../http/errors.ts';
import { MalformedRowErrors } from '../routes.ts';
import { screeningUnavailable } from './unavailable.ts';

/**
 * POST /admin/screening/reload (admin token, mounted inside the admin routes): reloads this process's
 * lists from its reference directory now. Other processes pick the change up with their periodic
 * directory check (VERICASE_SCREENING_WATCH_SECONDS).
 */
export function registerScreeningAdminRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/screening/reload',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Reload the sanctions lists (new list version, no restart)',
        querystring: Type.Object({
          accept_shrunk: Type.Optional(
            Type.Boolean({
              description:
                'Accept lists that lost more than half of their entries (kept out otherwise, as a truncated file)',
            }),
          ),
        }),
        response: {
          200: Type.Object({
            changed: Type.Boolean(),
            notice: Nullable(
              Type.String({
                description:
                  'Set when the lists in use are kept: the directory holds none, or a list lost more than half of its entries',
              }),
            ),
            versions_key: Nullable(Type.String()),
            loaded_at: Nullable(Type.String()),
            data: Type.Array(
              Type.Object({
                source: Type.String(),
                version: Type.String(),
                entities: Type.Integer(),
                malformed: Type.Integer(),
                errors: MalformedRowErrors,
              }),
            ),
          }),
          ...errors(503),
        },
      },
    },
    async (req) => {
      const s = ctx.screening;
      if (!s) throw new ApiError(503, 'Screening is not installed in this process');
      const report = await s.load({ acceptShrunk: req.query.accept_shrunk === true });
      if (!s.available) throw screeningUnavailable(ctx);
      return {
        changed: report.changed,
        notice: s.notice,
        versions_key: report.versionsKey,
        loaded_at: report.loadedAt,
        data: report.versions.map((v) => ({
          source: v.source,
          version: v.version,
          entities: v.entities,
          malformed: v.malformed,
          errors: v.errors,
        })),
      };
    },
  );
}
