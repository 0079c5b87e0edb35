import { Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../../http/common-schemas.ts';

export const ALERT_CATEGORIES = [
  'financial_changes',
  'legal_and_compliance',
  'company_status',
  'operational_changes',
  'debt_and_collection',
  'shareholder_changes',
  'other',
] as const;
/** The categories registry monitoring can raise (status, name/address, officers, owners). */
export const MONITORED_CATEGORIES = [
  'company_status',
  'operational_changes',
  'legal_and_compliance',
  'shareholder_changes',
] as const;

/** No create endpoint: the check exists because the workspace monitors linked companies. */
export const CompanyMonitoringCreateBody = Type.Object({ company_id: Uuid }, { additionalProperties: false });

const Review = Type.Object({
  comment: Nullable(Type.String()),
  reviewed_at: Nullable(Type.String()),
  reviewer_type: Nullable(Type.Enum(['user', 'system', 'api'])),
  user: Nullable(Type.Object({}, { additionalProperties: true })),
});

const Party = Type.Object(
  {
    key: Type.String(),
    entity_type: Type.Enum(['individual', 'company']),
    name: Type.String(),
  },
  { additionalProperties: true },
);

/** The differences found by the last run that saw a change (null until one does). */
export const RegistryChanges = Type.Object({
  detected_at: DateTime,
  categories: Type.Array(Type.Enum(ALERT_CATEGORIES)),
  fields: Type.Array(
    Type.Object({
      field: Type.Enum(['status', 'name', 'address']),
      old: Type.Unknown(),
      new: Type.Unknown(),
    }),
  ),
  officers: Type.Object({
    added: Type.Array(Party),
    removed: Type.Array(Party),
    changed: Type.Optional(
      Type.Array(
        Type.Object({ key: Type.String(), name: Type.String(), old: Type.Unknown(), new: Type.Unknown() }),
        {
          description:
            'Officers kept whose position changed: old and new `position`. Absent from changes found before it was watched.',
        },
      ),
    ),
  }),
  owners: Type.Object({
    added: Type.Array(Party),
    removed: Type.Array(Party),
    changed: Type.Array(
      Type.Object({ key: Type.String(), name: Type.String(), old: Type.Unknown(), new: Type.Unknown() }),
    ),
  }),
});

/** After the reference's `CompanyMonitoringCheckDataDTO`, with the registry and its changes. */
export const CompanyMonitoringData = Type.Object({
  result: Nullable(Type.Enum(['approved', 'rejected', 'error'])),
  settings: Type.Object({ alert_categories: Type.Array(Type.Enum(ALERT_CATEGORIES)) }),
  vendor: Type.Object({
    name: Type.String({ description: 'The registry provider watched (sandbox, gleif, ...)' }),
    is_monitored: Type.Boolean(),
  }),
  review: Review,
  registry: Type.Object({ country: Type.String(), vendor_ref: Type.String() }),
  changes: Nullable(RegistryChanges),
});
