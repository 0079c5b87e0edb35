import { isolate } from '../../shared/bidi-text.ts';
import { entityNames, type ReportData } from '../load-report-data.ts';
import { addressText, join, percent, show, words } from './format.ts';
import type { PdfWriter } from './writer.ts';

type Relation = ReportData['relations'][number];

/** `director, shareholder · 25% ownership · 30% voting rights · CFO` */
function relationTerms(r: Relation): string {
  return join(
    [
      r.roles.length ? r.roles.map(words).join(', ') : 'related',
      percent(r.ownership_percentage) && `${percent(r.ownership_percentage)} ownership`,
      percent(r.voting_rights_percentage) && `${percent(r.voting_rights_percentage)} voting rights`,
      r.position && `position: ${isolate(r.position)}`,
    ],
    ' · ',
  );
}

/** `IBAN FR76 3000 6000 0112 3456 7890 189 · BIC AGRIFRPP882`, or null when neither is known. */
function bankAccount(b: Record<string, string | null> | null): string | null {
  const iban = b?.iban ? b.iban.replace(/(.{4})(?=.)/g, '$1 ') : null;
  return join([iban && `IBAN ${iban}`, b?.bic && `BIC ${b.bic}`], ' · ') || null;
}

/** Every company, then every individual, each with its relations in the case. */
export function entitiesSection(w: PdfWriter, d: ReportData): void {
  // names as the rest of the report writes them (isolated: set inside the sentences below)
  const names = entityNames(d);
  const fromOf = (r: Relation) =>
    r.from_company_id
      ? (names.get(r.from_company_id) ?? 'company')
      : (names.get(r.from_individual_id ?? '') ?? 'individual');
  // relations listed in the order the entities are
  const rank = new Map([...d.companies, ...d.individuals].map((e, i) => [e.id, i]));
  const at = (id: string | null) => rank.get(id ?? '') ?? Number.MAX_SAFE_INTEGER;
  const relations = [...d.relations].sort(
    (a, b) =>
      at(a.from_company_id ?? a.from_individual_id) - at(b.from_company_id ?? b.from_individual_id) ||
      at(a.to_company_id) - at(b.to_company_id),
  );
  const to = new Map<string, Relation[]>();
  const from = new Map<string, Relation[]>();
  for (const r of relations) {
    to.set(r.to_company_id, [...(to.get(r.to_company_id) ?? []), r]);
    const src = r.from_company_id ?? r.from_individual_id ?? '';
    from.set(src, [...(from.get(src) ?? []), r]);
  }

  w.heading(`Companies (${d.companies.length})`);
  if (!d.companies.length) w.text('No company.', { grey: true });
  for (const c of d.companies) {
    w.heading(
      join(
        [
          names.get(c.id),
          c.type === 'main' ? '(main company)' : null,
          c.is_relevant ? null : '(not relevant)',
        ],
        ' ',
      ),
      2,
    );
    w.fields(
      [
        ['Registration', join([c.registration_number, c.country], ', ') || '-'],
        ['Legal form', show(c.legal_form ?? c.entity_legal_form)],
        ['Status', words(c.status)],
        ['Registered', show(c.registration_date)],
        ['Address', addressText(c.address)],
        ['Bank account', show(bankAccount(c.banking_information))],
        ...((from.get(c.id) ?? []).map((r) => [
          'Relation',
          `${relationTerms(r)} of ${names.get(r.to_company_id) ?? 'company'}`,
        ]) as [string, string][]),
        ...((to.get(c.id) ?? []).map((r) => ['Related', `${fromOf(r)}: ${relationTerms(r)}`]) as [
          string,
          string,
        ][]),
      ],
      { skipEmpty: true },
    );
  }

  w.heading(`Individuals (${d.individuals.length})`);
  if (!d.individuals.length) w.text('No individual.', { grey: true });
  for (const i of d.individuals) {
    const flags = [
      i.is_beneficial_owner && 'beneficial owner',
      i.is_controlling_person && 'controlling person',
      i.is_business_contact && 'business contact',
      i.is_signatory && 'signatory',
      i.is_delegator && 'delegator',
    ];
    w.heading(join([names.get(i.id), i.is_relevant ? null : '(not relevant)'], ' '), 2);
    w.fields(
      [
        ['Roles', i.roles.length ? i.roles.map(words).join(', ') : '-'],
        ['Flags', join(flags) || '-'],
        ['Position', show(i.position)],
        [
          'Ownership',
          join([
            percent(i.ownership_percentage) && `${percent(i.ownership_percentage)} ownership`,
            percent(i.voting_rights_percentage) && `${percent(i.voting_rights_percentage)} voting rights`,
          ]) || '-',
        ],
        ['Born', join([i.birth_date, i.birth_place, i.birth_country]) || '-'],
        ['Nationalities', show(i.nationalities)],
        ['E-mail', show(i.email)],
        ['Phone', show(i.phone_number)],
        ['Address', addressText(i.address)],
        ...((from.get(i.id) ?? []).map((r) => [
          'Relation',
          `${relationTerms(r)} of ${names.get(r.to_company_id) ?? 'company'}`,
        ]) as [string, string][]),
      ],
      { skipEmpty: true },
    );
  }
}
