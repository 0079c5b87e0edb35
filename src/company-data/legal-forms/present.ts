import type { EntityLegalForm } from '../schemas.ts';
import type { LegalForm, LegalFormName } from './legal-form-index.ts';

type LanguageOut = EntityLegalForm['languages'][string];

const unique = (values: Iterable<string>) => [...new Set(values)];

/** A form as the API shows it: the reference's code/country/subdivision/label/languages, plus flat fields. */
export function presentLegalForm(form: LegalForm): EntityLegalForm {
  const byLanguage = new Map<string, LegalFormName[]>();
  for (const n of form.names) {
    const key = n.languageCode ?? 'und';
    const list = byLanguage.get(key);
    if (list) list.push(n);
    else byLanguage.set(key, [n]);
  }
  const languages: Record<string, LanguageOut> = {};
  for (const [code, names] of byLanguage) {
    // a language with two names (Brazil's X0SD: "Sociedade Anônima", "Companhia") joins them
    const localName = unique(names.map((n) => n.localName)).join(', ');
    languages[code] = {
      label: localName,
      abbreviations: unique(names.flatMap((n) => n.abbreviations)),
      language: names[0].language,
      local_name: localName,
      transliterated_name: unique(names.map((n) => n.transliteratedName)).join(', '),
      transliterated_abbreviations: unique(names.flatMap((n) => n.transliteratedAbbreviations)),
    };
  }
  const first = form.names[0];
  return {
    code: form.code,
    country: form.country,
    ...(form.subdivision ? { subdivision: form.subdivision } : {}),
    label: form.label,
    languages,
    local_name: first?.localName ?? null,
    transliterated_name: first?.transliteratedName ?? null,
    language: first?.languageCode ?? null,
    abbreviations: unique(form.names.flatMap((n) => n.abbreviations)),
  };
}
