/**
 * The resources the OpenAPI document names under `components.schemas`, reused by `$ref` wherever an
 * operation's schema is one of them (src/http/openapi/name-schemas.ts finds them by structure). The
 * names follow the reference product's where it has the resource (`CaseDetailed`, `CaseRelation`,
 * `NoteComment`...), so generated clients get the types integrators already know.
 *
 * Inputs are listed in their strict form (src/http/strict-schema.ts), which is what the document shows
 * for request bodies.
 */
import type { TSchema } from 'typebox';
import { Activity } from '../../activities/schemas.ts';
import { CaseReport, CaseReportParams } from '../../case-reports/schemas.ts';
import { CaseDocument, CaseDocumentList } from '../../cases/documents/schemas.ts';
import { Case, CaseDetailed, CaseUpdate } from '../../cases/schemas.ts';
import { CheckEnvelope, fullCheckSchema } from '../../checks/envelope-schema.ts';
import { CHECK_TYPE_DEFINITIONS } from '../../checks/registry.ts';
import { AmlHit } from '../../checks/types/aml/schemas.ts';
import { ClientPortal, ShareLinkResponse } from '../../client-portals/schemas.ts';
import { Company, CompanyUpdate } from '../../companies/schemas.ts';
import { CompanyVendorData } from '../../companies/vendor-data/schemas.ts';
import { CaseCreateBody, CompanyCreateBody } from '../../company-data/import/schemas.ts';
import {
  AvailableDocument,
  CompanyProfile,
  CompanySearchResult,
  CountryEntry,
  DocumentOrder,
  EntityLegalForm,
} from '../../company-data/schemas.ts';
import { CustomProperty, CustomPropertyDetailed } from '../../custom-properties/schemas.ts';
import { DocumentTemplate, DocumentTemplateVersion } from '../../document-templates/schemas.ts';
import { DocumentType } from '../../document-types/schemas.ts';
import { UploadResult } from '../../files/schemas.ts';
import { FraudReport } from '../../fraud-database/schemas.ts';
import { Individual, IndividualCreate, IndividualUpdate } from '../../individuals/schemas.ts';
import { Note, NoteComment } from '../../notes/schemas.ts';
import { Relation, RelationCreate, RelationUpdate } from '../../relations/schemas.ts';
import { CaseReview } from '../../reviews/schemas.ts';
import { Risk } from '../../risks/schemas.ts';
import { WorkspaceSettings } from '../../settings/schemas.ts';
import { Tag } from '../../tags/schemas.ts';
import { Template, TemplateExecution } from '../../templates/schemas.ts';
import { User } from '../../users/schemas.ts';
import { Webhook, WebhookLog } from '../../webhooks/schemas.ts';
import { strictSchema } from '../strict-schema.ts';

/** `electronic_signature` → `ElectronicSignatureCheck`. */
export function checkSchemaName(type: string): string {
  return `${type
    .split(/[_-]/)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('')}Check`;
}

/** Name → schema, in the order they are written to the document. */
export function namedSchemas(): Record<string, TSchema> {
  const checks = Object.fromEntries(
    CHECK_TYPE_DEFINITIONS.map((def) => [
      checkSchemaName(def.type),
      fullCheckSchema(def.type, def.targets, def.dataSchema),
    ]),
  );
  return {
    Case,
    CaseDetailed,
    CaseCreate: strictSchema(CaseCreateBody),
    CaseUpdate: strictSchema(CaseUpdate),
    CaseReview,
    CaseDocument,
    CaseDocumentList,
    CaseReport,
    CaseReportParams: strictSchema(CaseReportParams),
    Risk,
    Company,
    CompanyCreate: strictSchema(CompanyCreateBody),
    CompanyUpdate: strictSchema(CompanyUpdate),
    CompanyVendorData,
    Individual,
    IndividualCreate: strictSchema(IndividualCreate),
    IndividualUpdate: strictSchema(IndividualUpdate),
    CaseRelation: Relation,
    CaseRelationCreate: strictSchema(RelationCreate),
    CaseRelationUpdate: strictSchema(RelationUpdate),
    Check: CheckEnvelope,
    ...checks,
    AmlHit,
    Note,
    NoteComment,
    Tag,
    Template,
    TemplateExecution,
    Webhook,
    WebhookLog,
    User,
    Activity,
    CustomProperty,
    CustomPropertyDetailed,
    CompanySearch: CompanySearchResult,
    CompanyData: CompanyProfile,
    Country: CountryEntry,
    EntityLegalForm,
    AvailableDocument,
    DocumentOrder,
    DocumentType,
    DocumentTemplate,
    DocumentTemplateVersion,
    FraudReport,
    ClientPortal,
    ClientPortalLink: ShareLinkResponse,
    FileUpload: UploadResult,
    WorkspaceSettings,
  };
}
