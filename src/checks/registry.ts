import type { CheckTypeDefinition } from './check-type.ts';
import { CHECK_TYPES } from './envelope-schema.ts';
import { amlCheck } from './types/aml/index.ts';
import { companyMonitoringCheck } from './types/company_monitoring/index.ts';
import { documentCheck } from './types/document/index.ts';
import { ekycCheck } from './types/ekyc/index.ts';
import { electronicSignatureCheck } from './types/electronic_signature/index.ts';
import { fraudDatabaseCheck } from './types/fraud_database/index.ts';
import { idDocumentCheck } from './types/id_document/index.ts';
import { idVerificationCheck } from './types/id_verification/index.ts';
import { onlineReputationCheck } from './types/online_reputation/index.ts';

/** The check types this service runs. Adding a type: a folder under types/ and one line here. */
export const CHECK_TYPE_DEFINITIONS: readonly CheckTypeDefinition[] = [
  ekycCheck,
  amlCheck,
  onlineReputationCheck,
  idDocumentCheck,
  companyMonitoringCheck,
  documentCheck,
  fraudDatabaseCheck,
  idVerificationCheck,
  electronicSignatureCheck,
];

const byType = new Map(CHECK_TYPE_DEFINITIONS.map((d) => [d.type, d]));

export function checkTypeDefinition(type: string): CheckTypeDefinition | undefined {
  return byType.get(type);
}

/** Spec types with no definition yet: their create endpoint answers 400 "not enabled". */
export function typesNotEnabled(): string[] {
  return CHECK_TYPES.filter((t) => !byType.has(t));
}
