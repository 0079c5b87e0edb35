/**
 * INSEE "catégories juridiques" (the `nature_juridique` of the API) → ISO 20275 (ELF) codes, for the
 * forms a KYB user meets. The French ELF list was built from the INSEE nomenclature, so each pair below
 * is the same form under two codes (labels as in the ELF list). Codes not listed keep their INSEE label
 * as `legal_form` and no ELF code: a wrong ELF code is worse than none.
 */
export const INSEE_TO_ELF: Record<string, { elf: string; elfLabel: string; label: string }> = {
  '1000': { elf: 'ZY9X', elfLabel: 'Entrepreneur individuel', label: 'Entrepreneur individuel' },
  '5202': { elf: 'H1U2', elfLabel: 'Société en nom collectif', label: 'Société en nom collectif' },
  '5306': { elf: 'VD7Z', elfLabel: 'Société en commandite simple', label: 'Société en commandite simple' },
  '5308': {
    elf: 'DEG4',
    elfLabel: 'Société en commandite par actions',
    label: 'Société en commandite par actions',
  },
  '5485': {
    elf: 'J9OZ',
    elfLabel: "Société d'exercice libéral à responsabilité limitée",
    label: "Société d'exercice libéral à responsabilité limitée",
  },
  '5499': {
    elf: 'V9QP',
    elfLabel: 'Société à responsabilité limitée (sans autre indication)',
    label: 'Société à responsabilité limitée (sans autre indication)',
  },
  '5599': {
    elf: 'K65D',
    elfLabel: "SA à conseil d'administration (s.a.i.)",
    label: "SA à conseil d'administration (s.a.i.)",
  },
  '5699': { elf: '5VCF', elfLabel: 'SA à directoire (s.a.i.)', label: 'SA à directoire (s.a.i.)' },
  '5710': {
    elf: '6CHY',
    elfLabel: 'société par actions simplifiée',
    label: 'SAS, société par actions simplifiée',
  },
  // A SASU is an SAS with one shareholder: the ELF list has no code of its own for it.
  '5720': {
    elf: '6CHY',
    elfLabel: 'société par actions simplifiée',
    label: 'Société par actions simplifiée à associé unique',
  },
  '5785': {
    elf: '3FCU',
    elfLabel: "Société d'exercice libéral par action simplifiée",
    label: "Société d'exercice libéral par action simplifiée",
  },
  '5800': { elf: 'TPNT', elfLabel: 'Société européenne', label: 'Société européenne' },
  '6220': {
    elf: 'R0B6',
    elfLabel: "Groupement d'intérêt économique (GIE)",
    label: "Groupement d'intérêt économique (GIE)",
  },
  '6540': { elf: 'FY0F', elfLabel: 'Société civile immobilière', label: 'Société civile immobilière' },
  '6589': { elf: 'M1BJ', elfLabel: 'Société civile de moyens', label: 'Société civile de moyens' },
  '6599': { elf: '1L24', elfLabel: 'Autre société civile', label: 'Autre société civile' },
  '9220': { elf: 'BEWI', elfLabel: 'Association déclarée', label: 'Association déclarée' },
  '9300': { elf: '9T5S', elfLabel: 'Fondation', label: 'Fondation' },
};

/** Labels of frequent INSEE codes that have no ELF equivalent above. */
const INSEE_LABELS: Record<string, string> = {
  '5498': 'SARL unipersonnelle',
};

export function frenchLegalForm(code: string | null): {
  legal_form: string | null;
  entity_legal_form: string | null;
  entity_legal_form_label: string | null;
} {
  if (!code) return { legal_form: null, entity_legal_form: null, entity_legal_form_label: null };
  const known = INSEE_TO_ELF[code];
  if (known)
    return { legal_form: known.label, entity_legal_form: known.elf, entity_legal_form_label: known.elfLabel };
  // Unknown label: the INSEE code itself is still the registry's legal form, stated as such.
  return {
    legal_form: INSEE_LABELS[code] ?? `INSEE ${code}`,
    entity_legal_form: null,
    entity_legal_form_label: null,
  };
}
