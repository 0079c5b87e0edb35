import { Type } from 'typebox';
import { DateTime, Nullable } from '../../http/common-schemas.ts';

/** After the reference's `DataLineage`: where the current value of one property came from. */
export const DataLineageEntry = Type.Object({
  current_value: Type.Unknown({ description: 'Current value of the property on the entity' }),
  sources: Type.Array(
    Type.Object({
      value: Type.Unknown({ description: 'Value seen from this source' }),
      at: Nullable(DateTime),
      origin: Type.Object({
        type: Type.Enum(['user', 'api', 'contact', 'system', 'vendor', 'check']),
        email: Type.Optional(Nullable(Type.String())),
        name: Type.Optional(
          Nullable(
            Type.String({ description: 'The registry provider for vendor origins (sandbox, gleif...)' }),
          ),
        ),
      }),
      applied: Type.Boolean(),
      is_current: Type.Boolean(),
    }),
  ),
});

/** Per property path (`name`, `address.city`...), on companies and individuals of a case. */
export const DataLineageMap = Type.Record(Type.String(), DataLineageEntry, {
  description:
    'Data lineage keyed by property path: which values came from the company registry (origin vendor) and which from the API. Only with property_origin=true (or data_lineage=true) on GET /v1/cases/{id}',
});
