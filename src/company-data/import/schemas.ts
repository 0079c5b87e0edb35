import { Type } from 'typebox';
import { CaseCreate } from '../../cases/schemas.ts';
import { CompanyCreate, companyWritable, NestedCompanyCreate } from '../../companies/schemas.ts';

/**
 * Creation bodies of companies that may come from the company registry: `search_ref` (from
 * `GET /v1/company-data/search`) fills the company from its registry profile, fields given in the
 * body winning; `name` is then optional. `import_related` also creates its officers and owners.
 */
const registryFields = {
  search_ref: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 2000,
      description:
        'A search_ref from GET /v1/company-data/search: the registry profile fills the fields not given here and links the company to its registry record (one fetch counted against the limit)',
    }),
  ),
  import_related: Type.Optional(
    Type.Boolean({
      description:
        "With search_ref only: the profile's legal representatives and beneficial owners become individuals, its corporate shareholders affiliated companies, with their relations",
    }),
  ),
};
const optionalName = Type.Optional(companyWritable.name);

export const NestedCompanyCreateFromRegistry = Type.Object({
  ...NestedCompanyCreate.properties,
  name: optionalName,
  ...registryFields,
});

export const CaseCreateBody = Type.Object({
  ...CaseCreate.properties,
  companies: Type.Optional(Type.Array(NestedCompanyCreateFromRegistry, { maxItems: 500 })),
});

export const CompanyCreateBody = Type.Object({
  ...CompanyCreate.properties,
  name: optionalName,
  ...registryFields,
});
