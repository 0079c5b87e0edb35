import { type TSchema, Type } from 'typebox';
import { AML_LIST_TYPES } from '../checks/types/aml/schemas.ts';
import { EKYC_VENDORS } from '../checks/types/ekyc/schemas.ts';
import { FRAUD_DATABASE_VENDORS } from '../checks/types/fraud_database/schemas.ts';
import { IDD_VENDORS } from '../checks/types/id_document/schemas.ts';
import { IDV_MODES, IDV_VENDORS } from '../checks/types/id_verification/schemas.ts';
import { Nullable } from '../http/common-schemas.ts';
import { TWO_LETTER_COUNTRY } from '../http/schema-formats.ts';

const strict = { additionalProperties: false };

/**
 * Workspace defaults per check type (a check's settings resolve field by field: request, then
 * these, then the API defaults) and the workspace check limit. Validated, so a bad value is a 400
 * here rather than a surprise at check creation.
 */
function checkSettings(unset: boolean) {
  // a PATCH (or PUT) may unset a default with null: the check then resolves as if it had never been
  // set (request, then the API default). Not for a setting whose null is a value of its own
  // (`limit`, `profiles`, `redirect_url`), nor in what GET answers (an unset default is absent)
  const U = <T extends TSchema>(schema: T) =>
    unset
      ? Type.Union([schema, Type.Null()], { description: 'null: unset (the API default applies)' })
      : schema;
  const Auto = {
    automatic_approval: Type.Optional(U(Type.Boolean())),
    automatic_rejection: Type.Optional(U(Type.Boolean())),
  };
  return Type.Object(
    {
      limit: Type.Optional(
        Nullable(
          Type.Integer({
            minimum: 0,
            description:
              'Checks the workspace may create per calendar month (UTC); beyond it creation is a 400 CHECK_LIMIT_REACHED; null: no limit',
          }),
        ),
      ),
      ekyc: Type.Optional(
        Type.Object(
          {
            vendor: Type.Optional(U(Type.Enum(EKYC_VENDORS))),
            ...Auto,
            profiles: Type.Optional(
              Nullable(
                Type.Record(
                  Type.String({ pattern: TWO_LETTER_COUNTRY }),
                  Type.Object(
                    {
                      profile_id: Type.String({ minLength: 1 }),
                      profile_name: Type.Optional(Nullable(Type.String())),
                    },
                    strict,
                  ),
                  {
                    description:
                      'Verification profile per country; null: a sandbox profile for every supported country',
                  },
                ),
              ),
            ),
          },
          strict,
        ),
      ),
      id_document: Type.Optional(
        Type.Object({ vendor: Type.Optional(U(Type.Enum(IDD_VENDORS))), ...Auto }, strict),
      ),
      id_verification: Type.Optional(
        Type.Object(
          {
            vendor: Type.Optional(U(Type.Enum(IDV_VENDORS))),
            mode: Type.Optional(U(Type.Enum(IDV_MODES))),
            ...Auto,
            redirect_url: Type.Optional(
              Nullable(Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 2000 })),
            ),
          },
          strict,
        ),
      ),
      aml: Type.Optional(
        Type.Object(
          {
            fuzziness: Type.Optional(U(Type.Number({ minimum: 0, maximum: 1 }))),
            exact_match: Type.Optional(U(Type.Boolean())),
            list_types: Type.Optional(
              U(Type.Array(Type.Enum(AML_LIST_TYPES), { uniqueItems: true, minItems: 1 })),
            ),
            enable_entity_filter: Type.Optional(U(Type.Boolean())),
            monitoring: Type.Optional(U(Type.Boolean({ description: 'New aml checks are monitored' }))),
          },
          strict,
        ),
      ),
      online_reputation: Type.Optional(Type.Object({}, strict)),
      document: Type.Optional(Type.Object({ ...Auto }, strict)),
      fraud_database: Type.Optional(
        Type.Object({ vendor: Type.Optional(U(Type.Enum(FRAUD_DATABASE_VENDORS))), ...Auto }, strict),
      ),
      company_monitoring: Type.Optional(
        Type.Object(
          {
            enabled: Type.Optional(
              U(
                Type.Boolean({
                  description:
                    'Companies linked to their registry record (created from a search_ref) get a company_monitoring check, and the registry is re-read on a schedule',
                }),
              ),
            ),
          },
          strict,
        ),
      ),
    },
    strict,
  );
}

export const CheckSettings = checkSettings(false);
/** The checks' defaults as a PATCH or a PUT gives them: null unsets one (dropUnsetDefaults). */
export const CheckSettingsPatch = checkSettings(true);

const FetchLimit = Nullable(
  Type.Integer({
    minimum: 0,
    description:
      'Company profiles (GET /v1/company-data/fetch) the workspace may fetch per calendar month (UTC); null: no limit',
  }),
);

const Share = Type.Boolean({
  description:
    "Join the shared fraud list: other sharing workspaces' checks match this workspace's reports, and this workspace's checks match theirs (own reports always match)",
});

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
          'Months from a case review to its next_review_at, per case risk level; null: no review due',
      },
    ),
  }),
  risk: Type.Object({
    online_engines: Type.Boolean({
      description: 'When true, risk is computed by online engines and POST /v1/cases/{id}/risks answers 400',
    }),
  }),
  checks: CheckSettings,
  company_data: Type.Object({ fetch_limit: FetchLimit }),
  fraud_database: Type.Object({ share: Share }),
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
    checks: Type.Optional(CheckSettingsPatch),
    company_data: Type.Optional(
      Type.Object({ fetch_limit: Type.Optional(FetchLimit) }, { additionalProperties: false }),
    ),
    fraud_database: Type.Optional(
      Type.Object({ share: Type.Optional(Share) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
