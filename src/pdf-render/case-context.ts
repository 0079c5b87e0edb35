/**
 * The data a document template sees: the case, its main company, the signer and the date. Built
 * from explicit field lists (what a template may print is decided here, not by the tables: no ids
 * of other tenants' objects, no internal columns, no secrets such as portal tokens).
 */

import type { Selectable } from 'kysely';
import { findCaseById } from '../cases/repository.ts';
import type { Db } from '../db/connect.ts';
import type { CompaniesTable, IndividualsTable } from '../db/schema.ts';
import { badRequest, notFound } from '../http/errors.ts';

const ADDRESS_FIELDS = [
  'street_address',
  'street_address_2',
  'postal_code',
  'city',
  'state',
  'region',
  'country',
];

function address(a: Record<string, string | null> | null | undefined) {
  const out: Record<string, string | null> = {};
  for (const k of ADDRESS_FIELDS) out[k] = a?.[k] ?? null;
  // one line, for templates that print the address as a whole
  out.full = [
    out.street_address,
    out.street_address_2,
    [out.postal_code, out.city].filter(Boolean).join(' '),
    out.country,
  ]
    .filter((p) => p)
    .join(', ');
  return out;
}

function company(c: Selectable<CompaniesTable>) {
  return {
    name: c.name,
    commercial_name: c.commercial_name,
    registration_number: c.registration_number,
    registration_date: c.registration_date,
    country: c.country,
    legal_form: c.legal_form,
    status: c.status,
    share_capital: c.share_capital,
    tax_identification_number: c.tax_identification_number,
    website_url: c.website_url,
    address: address(c.address),
    custom_properties: c.custom_properties ?? {},
  };
}

function person(i: Selectable<IndividualsTable>) {
  return {
    first_name: i.first_name,
    middle_name: i.middle_name,
    last_name: i.last_name,
    full_name: [i.first_name, i.middle_name, i.last_name].filter(Boolean).join(' '),
    email: i.email,
    phone_number: i.phone_number,
    position: i.position,
    birth_date: i.birth_date,
    birth_place: i.birth_place,
    birth_country: i.birth_country,
    nationalities: i.nationalities ?? [],
    address: address(i.address),
    custom_properties: i.custom_properties ?? {},
  };
}

export interface TemplateContextInput {
  workspaceId: string;
  caseId: string;
  signerIndividualId?: string | null;
  now?: Date;
}

/** The template context of a live case of the workspace (404 otherwise). */
export async function loadTemplateContext(
  db: Db,
  input: TemplateContextInput,
): Promise<Record<string, unknown>> {
  const kase = await findCaseById(db, input.workspaceId, input.caseId);
  if (!kase) throw notFound('Case');
  const [main, signer] = await Promise.all([
    db
      .selectFrom('companies')
      .selectAll()
      .where('workspace_id', '=', input.workspaceId)
      .where('case_id', '=', kase.id)
      .where('type', '=', 'main')
      .executeTakeFirst(),
    input.signerIndividualId
      ? db
          .selectFrom('individuals')
          .selectAll()
          .where('workspace_id', '=', input.workspaceId)
          .where('case_id', '=', kase.id)
          .where('id', '=', input.signerIndividualId)
          .executeTakeFirst()
      : undefined,
  ]);
  if (input.signerIndividualId && !signer) {
    throw badRequest('individual_id: not an individual of this case', 'individual_id');
  }
  const now = input.now ?? new Date();
  return {
    case: {
      id: kase.id,
      name: kase.name,
      external_id: kase.external_id,
      status: kase.status,
      created_at: kase.created_at.toISOString(),
      tags: kase.tags,
      metadata: kase.metadata ?? {},
      custom_properties: kase.custom_properties ?? {},
    },
    // the main company; `null` (every company.* placeholder missing) for a case without one
    company: main ? company(main) : null,
    signer: signer ? person(signer) : null,
    // the render's day (UTC) as YYYY-MM-DD, and the instant
    date: now.toISOString().slice(0, 10),
    now: now.toISOString(),
  };
}
