import { Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../http/common-schemas.ts';

export const RelationRole = Type.Enum(['legal_representative', 'shareholder']);
const Percentage = Nullable(Type.Number({ minimum: 0, maximum: 100 }));

const relationProps = {
  voting_rights_percentage: Type.Optional(Percentage),
  ownership_percentage: Type.Optional(Percentage),
  roles: Type.Optional(Type.Array(RelationRole, { uniqueItems: true })),
  position: Type.Optional(Nullable(Type.String())),
};

/** A relation nested in the case-creation body; the source entity is the one it is nested in. */
export const NestedRelationCreate = Type.Object({
  ...relationProps,
  source_company_ref: Type.Optional(
    Type.String({ description: 'ref of the company at the other end; omitted means the main company' }),
  ),
});

/** A relation nested in a company or individual created against a case_id. */
export const ImplicitRelationCreate = Type.Object({
  ...relationProps,
  to_company_id: Type.Optional(Uuid),
});

export const RelationCreate = Type.Object(
  {
    from_company_id: Type.Optional(Uuid),
    from_individual_id: Type.Optional(Uuid),
    to_company_id: Type.Optional(Uuid),
    ...relationProps,
  },
  { description: 'Exactly one of from_company_id and from_individual_id' },
);

export const RelationUpdate = Type.Object({ ...relationProps, to_company_id: Type.Optional(Uuid) });

export const Relation = Type.Object({
  id: Uuid,
  from_company_id: Nullable(Uuid),
  from_individual_id: Nullable(Uuid),
  to_company_id: Uuid,
  voting_rights_percentage: Nullable(Type.Number()),
  ownership_percentage: Nullable(Type.Number()),
  roles: Type.Array(RelationRole),
  position: Nullable(Type.String()),
  created_at: DateTime,
  updated_at: DateTime,
});

/** A relation as seen from its source entity: the same fields but the source. */
export const RelationOfEntity = Type.Omit(Relation, ['from_company_id', 'from_individual_id']);
