/** The shapes the case page reads, taken from the generated API types (web/console/api/schema.d.ts). */
import type { paths } from '../../api/schema';

type Json<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': infer T } } } };
}
  ? T
  : never;

export type CaseDetailed = Json<'/v1/cases/{id}'>;
export type CompanyOut = CaseDetailed['companies'][number];
export type IndividualOut = CaseDetailed['individuals'][number];
export type CheckEnvelope = CompanyOut['checks'][number];
export type CaseDocument = Json<'/v1/cases/{id}/documents'>['data'][number];
export type NoteOut = Json<'/v1/cases/{id}/notes'>['data'][number];
export type ActivityOut = Json<'/v1/activities'>['data'][number];
export type TagOut = Json<'/v1/tags'>['data'][number];
export type RiskLevel = NonNullable<CaseDetailed['risk']>['level'];
export type NestedUser = NonNullable<NoteOut['author']>;

/** A company or an individual of the case, with what every panel needs. */
export type CaseEntity =
  | { kind: 'company'; id: string; name: string; main: boolean; data: CompanyOut }
  | { kind: 'individual'; id: string; name: string; main: false; data: IndividualOut };

export function individualName(i: Pick<IndividualOut, 'first_name' | 'middle_name' | 'last_name'>): string {
  return [i.first_name, i.middle_name, i.last_name].filter(Boolean).join(' ');
}

export function caseEntities(c: CaseDetailed): CaseEntity[] {
  return [
    ...c.companies.map(
      (co): CaseEntity => ({ kind: 'company', id: co.id, name: co.name, main: co.type === 'main', data: co }),
    ),
    ...c.individuals.map(
      (i): CaseEntity => ({ kind: 'individual', id: i.id, name: individualName(i), main: false, data: i }),
    ),
  ];
}

export function userName(u: NestedUser | null | undefined): string | null {
  if (!u) return null;
  return [u.first_name, u.last_name].filter(Boolean).join(' ') || u.email;
}
