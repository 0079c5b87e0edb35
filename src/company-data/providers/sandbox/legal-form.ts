/**
 * The sandbox's legal form for a country: from the ISO 20275 list when one is loaded (the
 * LEGAL-FORMS index), else from a small built-in table of well-known forms; elsewhere none.
 */
export interface LegalFormChoice {
  legal_form: string | null;
  entity_legal_form: string | null;
  entity_legal_form_label: string | null;
}

/** What the sandbox needs of the legal-form index (`src/company-data/legal-forms/`). */
export interface LegalFormSource {
  forCountry(country: string, subdivision?: string): readonly { code: string }[];
  label(code: string): string | null;
}

/** Well-known forms, used first when the list has them, and alone when no list is available. */
const BUILT_IN: Record<string, { code: string; label: string; abbreviation: string }> = {
  FR: { code: '6CHY', label: 'société par actions simplifiée', abbreviation: 'SAS' },
  GB: { code: 'H0PO', label: 'Private Limited Company', abbreviation: 'Ltd' },
  DE: { code: '2HBR', label: 'Gesellschaft mit beschränkter Haftung', abbreviation: 'GmbH' },
  NO: { code: 'YI42', label: 'Aksjeselskap', abbreviation: 'AS' },
  'US-DE': { code: 'XTIQ', label: 'Corporation', abbreviation: 'Corp.' },
  // the usual private limited company of each country: a form drawn from the whole list was often
  // one no trading company has (a public body, a foundation, a cooperative)
  IT: { code: 'OV32', label: 'Società a responsabilità limitata', abbreviation: 'S.R.L.' },
  ES: { code: 'DP3Q', label: 'Sociedad de Responsabilidad Limitada', abbreviation: 'S.L.' },
  NL: { code: '54M6', label: 'besloten vennootschap met beperkte aansprakelijkheid', abbreviation: 'B.V.' },
  BE: { code: '3W7E', label: 'Société à responsabilité limitée', abbreviation: 'SRL' },
  LU: { code: 'DVXS', label: 'Société à responsabilité limitée', abbreviation: 'SARL' },
  CH: { code: '3EKS', label: 'Gesellschaft mit beschränkter Haftung', abbreviation: 'GmbH' },
  AT: { code: 'AXSB', label: 'Gesellschaft mit beschränkter Haftung', abbreviation: 'GmbH' },
  IE: { code: 'MNQ7', label: 'Private Company Limited by Shares', abbreviation: 'Ltd' },
  PL: { code: 'O7XB', label: 'spółka z ograniczoną odpowiedzialnością', abbreviation: 'sp. z o.o.' },
  SE: { code: 'XJHM', label: 'Aktiebolag', abbreviation: 'AB' },
  DK: { code: 'H8VP', label: 'Anpartsselskab', abbreviation: 'ApS' },
  FI: { code: 'DKUW', label: 'Osakeyhtiö', abbreviation: 'Oy' },
};

/** US forms are per state: sandbox companies of the US are Delaware ones. */
export const subdivisionOf = (country: string): string | undefined =>
  country === 'US' ? 'US-DE' : undefined;

export function chooseLegalForm(
  country: string,
  source: LegalFormSource | null,
  pick: (n: number) => number,
): LegalFormChoice {
  const subdivision = subdivisionOf(country);
  const known = BUILT_IN[subdivision ?? country];
  if (source) {
    const forms = source.forCountry(country, subdivision);
    const form = forms.find((f) => f.code === known?.code) ?? forms[pick(forms.length || 1)];
    if (form) {
      const label = source.label(form.code);
      return { legal_form: label, entity_legal_form: form.code, entity_legal_form_label: label };
    }
  }
  if (!known) return { legal_form: null, entity_legal_form: null, entity_legal_form_label: null };
  return { legal_form: known.label, entity_legal_form: known.code, entity_legal_form_label: known.label };
}
