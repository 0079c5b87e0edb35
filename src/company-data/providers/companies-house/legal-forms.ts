/**
 * Companies House `type` (its `company_type` enumeration) → a readable legal form and, where the
 * ISO 20275 list has the same form for the UK, its ELF code and label. Types without a clean ELF
 * equivalent (UK establishments of overseas companies, "other"...) keep their description only.
 */
const TYPES: Record<string, { label: string; elf?: string; elfLabel?: string }> = {
  ltd: { label: 'Private limited company', elf: 'H0PO', elfLabel: 'Private Limited Company' },
  plc: { label: 'Public limited company', elf: 'B6ES', elfLabel: 'Public Limited Company' },
  llp: { label: 'Limited liability partnership', elf: 'Z0EY', elfLabel: 'Limited Liability Partnership' },
  'private-limited-guarant-nsc': {
    label: 'Private company limited by guarantee without share capital',
    elf: '4GJI',
    elfLabel: 'Private Limited by Guarantee',
  },
  'private-limited-guarant-nsc-limited-exemption': {
    label: "Private company limited by guarantee without share capital, use of 'Limited' exemption",
    elf: '4GJI',
    elfLabel: 'Private Limited by Guarantee',
  },
  'private-limited-shares-section-30-exemption': {
    label: "Private company limited by shares, use of 'Limited' exemption",
    elf: 'H0PO',
    elfLabel: 'Private Limited Company',
  },
  'private-unlimited': { label: 'Private unlimited company', elf: '57V7', elfLabel: 'Private Unlimited' },
  'private-unlimited-nsc': {
    label: 'Private unlimited company without share capital',
    elf: '60IF',
    elfLabel: 'Private Unlimited/No Share Capital',
  },
  'limited-partnership': { label: 'Limited partnership', elf: 'ID30', elfLabel: 'Limited Partnership' },
  'old-public-company': { label: 'Old public company', elf: 'ZQ6S', elfLabel: 'Old Public Company' },
  'charitable-incorporated-organisation': {
    label: 'Charitable incorporated organisation',
    elf: '7T8N',
    elfLabel: 'Charitable Incorporated Organisation',
  },
  'scottish-charitable-incorporated-organisation': {
    label: 'Scottish charitable incorporated organisation',
    elf: 'STX7',
    elfLabel: 'Scottish Charitable Incorporated Organisation',
  },
  'royal-charter': { label: 'Royal charter company', elf: '9B78', elfLabel: 'Royal Charter Company' },
  'investment-company-with-variable-capital': {
    label: 'Investment company with variable capital',
    elf: 'VV0W',
    elfLabel: 'Investment Company with Variable Capital',
  },
  'protected-cell-company': {
    label: 'Protected cell company',
    elf: 'TT2H',
    elfLabel: 'Protected Cell Company',
  },
  'assurance-company': { label: 'Assurance company', elf: '8CF0', elfLabel: 'Assurance Company' },
  'united-kingdom-societas': {
    label: 'United Kingdom Societas',
    elf: '468Q',
    elfLabel: 'United Kingdom Societas',
  },
  'scottish-partnership': {
    label: 'Scottish qualifying partnership',
    elf: 'NBTW',
    elfLabel: 'Scottish Partnership',
  },
  'uk-establishment': { label: 'UK establishment of an overseas company' },
  'oversea-company': { label: 'Overseas company' },
  'registered-overseas-entity': { label: 'Overseas entity' },
  'northern-ireland': {
    label: 'Northern Ireland company',
    elf: '4A3J',
    elfLabel: 'Northern Ireland Company',
  },
  'northern-ireland-other': {
    label: 'Credit union (Northern Ireland)',
  },
};

export function britishLegalForm(type: string | null): {
  legal_form: string | null;
  entity_legal_form: string | null;
  entity_legal_form_label: string | null;
} {
  if (!type) return { legal_form: null, entity_legal_form: null, entity_legal_form_label: null };
  const known = TYPES[type];
  return {
    // An unlisted type is still the register's statement: kept as its identifier.
    legal_form: known?.label ?? type,
    entity_legal_form: known?.elf ?? null,
    entity_legal_form_label: known?.elfLabel ?? null,
  };
}
