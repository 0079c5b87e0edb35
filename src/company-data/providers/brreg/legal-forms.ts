/**
 * Enhetsregisteret `organisasjonsform.kode` → ISO 20275 (ELF) code for the Norwegian forms of the ELF
 * list (same forms, labels as in the list). Other codes (ORGL, STAT, NUF...) keep the register's
 * description as `legal_form` and no ELF code. NUF, the Norwegian branch of a foreign company, is no
 * legal form of its own: its ELF code would be the foreign company's.
 */
const ELF: Record<string, { elf: string; label: string }> = {
  AS: { elf: 'YI42', label: 'Aksjeselskap' },
  ASA: { elf: 'IQGE', label: 'Allmennaksjeselskap' },
  ENK: { elf: 'EXD7', label: 'Enkeltpersonforetak' },
  ANS: { elf: '326Y', label: 'Ansvarlig selskap' },
  DA: { elf: 'CF5L', label: 'Ansvarlig selskap, delt ansvar' },
  KS: { elf: 'M9IQ', label: 'Kommandittselskap' },
  SA: { elf: 'K5P8', label: 'Samvirkeforetak' },
  BA: { elf: 'Q0Q1', label: 'Selskap med begrenset ansvar' },
  STI: { elf: '3C7U', label: 'Stiftelse' },
  FLI: { elf: 'FSBD', label: 'Forening' },
  BBL: { elf: '9DI1', label: 'Boligbyggelag' },
  BRL: { elf: 'O0EU', label: 'Borettslag' },
  SPA: { elf: 'R71C', label: 'Sparebank' },
  GFS: { elf: '8S9H', label: 'Gjensidig forsikringsselskap' },
  IKS: { elf: 'YTMC', label: 'Interkommunalt selskap' },
  KF: { elf: '3L58', label: 'Kommunalt foretak' },
  SF: { elf: '50TD', label: 'Statsforetak' },
  PK: { elf: 'BJ65', label: 'Pensjonskasse' },
  SE: { elf: 'V06W', label: 'Europeisk selskap' },
  KBO: { elf: 'PB3V', label: 'Konkursbo' },
  ESEK: { elf: 'ZQ0Q', label: 'Eierseksjonssameie' },
};

export function norwegianLegalForm(
  code: string | null,
  description: string | null,
): { legal_form: string | null; entity_legal_form: string | null; entity_legal_form_label: string | null } {
  const known = code ? ELF[code] : undefined;
  return {
    legal_form: description ?? code,
    entity_legal_form: known?.elf ?? null,
    entity_legal_form_label: known?.label ?? null,
  };
}
