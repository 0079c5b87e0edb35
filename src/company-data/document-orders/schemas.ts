import { type Static, Type } from 'typebox';
import { Country, Uuid } from '../../http/common-schemas.ts';
import { AvailableDocument } from '../schemas.ts';

/** `GET /company-data/available-documents`: a company of the workspace, or a registry record. */
export const AvailableDocumentsQuery = Type.Object({
  company_id: Type.Optional(Uuid),
  country: Type.Optional(Country),
  registration_number: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});
export type AvailableDocumentsQuery = Static<typeof AvailableDocumentsQuery>;

export const AvailableDocumentList = Type.Object({ data: Type.Array(AvailableDocument) });
