import { Type } from 'typebox';
import { Nullable } from '../http/common-schemas.ts';

const Months = Nullable(Type.Integer({ minimum: 1, maximum: 120 }));

/** Workspace settings. Check types add their own defaults under `checks`. */
export const WorkspaceSettings = Type.Object({
  case_review: Type.Object({
    comment_mandatory: Type.Boolean({ description: 'A case review must carry a comment' }),
    frequency_in_months: Type.Object(
      {
        not_defined: Months,
        low: Months,
        medium: Months,
        high: Months,
        critical: Months,
        prohibited: Months,
      },
      {
        description:
          'Months from an approving review to next_review_at, per case risk level; null: no review due',
      },
    ),
  }),
  risk: Type.Object({
    online_engines: Type.Boolean({
      description: 'When true, risk is computed by online engines and POST /v1/cases/{id}/risks answers 400',
    }),
  }),
  checks: Type.Record(Type.String(), Type.Any(), {
    description: 'Per check type defaults and limits (see the checks documentation)',
  }),
});

/** A PATCH body: any subset, merged deeply into the stored settings. */
export const WorkspaceSettingsPatch = Type.Object(
  {
    case_review: Type.Optional(
      Type.Object(
        {
          comment_mandatory: Type.Optional(Type.Boolean()),
          frequency_in_months: Type.Optional(
            Type.Object(
              {
                not_defined: Type.Optional(Months),
                low: Type.Optional(Months),
                medium: Type.Optional(Months),
                high: Type.Optional(Months),
                critical: Type.Optional(Months),
                prohibited: Type.Optional(Months),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    risk: Type.Optional(
      Type.Object({ online_engines: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    ),
    checks: Type.Optional(Type.Record(Type.String(), Type.Any())),
  },
  { additionalProperties: false },
);
