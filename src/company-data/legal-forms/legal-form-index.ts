/**
 * The active ISO 20275 legal forms, grouped by ELF code (the CSV has one row per code and language)
 * and indexed by country and subdivision. Built once from the parsed rows; read-only afterwards.
 *
 * Memory: only what the API shows is kept (no dates, no modification notes); a transliterated name
 * equal to the local name is the same string, repeated language names are interned, and empty
 * abbreviation lists share one array.
 */
import type { ElfRow } from '../../shared/elf-csv.ts';

/** One language's name of a legal form. */
export interface LegalFormName {
  /** ISO 639-1 code (e.g. fr); null when the list gives none. */
  languageCode: string | null;
  /** The language's English name (e.g. French). */
  language: string | null;
  localName: string;
  /** Latin-script name (ISO 01-140-10); equals localName for Latin-script languages. */
  transliteratedName: string;
  abbreviations: readonly string[];
  transliteratedAbbreviations: readonly string[];
}

export interface LegalForm {
  code: string;
  /** Null for the placeholder codes valid in every country (8888, 9999). */
  country: string | null;
  /** ISO 3166-2, when the form exists in one subdivision only (US-DE). */
  subdivision: string | null;
  /** In the list's order; empty for the placeholder codes. */
  names: readonly LegalFormName[];
  /** The local names joined with ", " (several languages); for a form without names, the list's note. */
  label: string;
}

const ACTIVE = 'ACTV';

export class LegalFormIndex {
  readonly #byCode = new Map<string, LegalForm>();
  /** country → forms; '' holds the placeholder codes without a country. */
  readonly #byCountry = new Map<string, LegalForm[]>();

  /** Where the list came from (file name), for logs and benchmarks. */
  readonly source: string;

  /** Builds the index from parsed rows; inactive (INAC) rows are left out. */
  constructor(rows: Iterable<ElfRow>, source: string) {
    this.source = source;
    const interned = new Map<string, string>();
    const intern = (s: string) => {
      const hit = interned.get(s);
      if (hit !== undefined) return hit;
      interned.set(s, s);
      return s;
    };
    const building = new Map<string, { form: LegalForm; names: LegalFormName[]; reason: string }>();
    for (const row of rows) {
      if (row.status !== ACTIVE) continue;
      let entry = building.get(row.code);
      if (!entry) {
        const form: LegalForm = {
          code: row.code,
          country: row.country ? intern(row.country) : null,
          subdivision: row.subdivision ? intern(row.subdivision) : null,
          names: [],
          label: '',
        };
        entry = { form, names: [], reason: row.reason };
        building.set(row.code, entry);
      }
      if (!row.localName) continue;
      entry.names.push({
        languageCode: row.languageCode ? intern(row.languageCode) : null,
        language: row.language ? intern(row.language) : null,
        localName: row.localName,
        transliteratedName:
          !row.transliteratedName || row.transliteratedName === row.localName
            ? row.localName
            : row.transliteratedName,
        abbreviations: row.abbreviationsLocal,
        transliteratedAbbreviations: sameList(row.abbreviationsTransliterated, row.abbreviationsLocal)
          ? row.abbreviationsLocal
          : row.abbreviationsTransliterated,
      });
    }
    for (const { form, names, reason } of building.values()) {
      const label = [...new Set(names.map((n) => n.localName))].join(', ') || reason || form.code;
      const done: LegalForm = { ...form, names, label };
      this.#byCode.set(done.code, done);
      const key = done.country ?? '';
      const list = this.#byCountry.get(key);
      if (list) list.push(done);
      else this.#byCountry.set(key, [done]);
    }
  }

  get size(): number {
    return this.#byCode.size;
  }

  /** Every active form, the placeholder codes without a country included. */
  all(): LegalForm[] {
    return [...this.#byCode.values()];
  }

  /**
   * The forms of one country (alpha-2). With a subdivision (ISO 3166-2), only the forms of that
   * subdivision; without one, the country's national and regional forms alike.
   */
  forCountry(country: string, subdivision?: string): LegalForm[] {
    const list = this.#byCountry.get(country.toUpperCase()) ?? [];
    if (!subdivision) return [...list];
    const wanted = subdivision.toUpperCase();
    return list.filter((f) => f.subdivision === wanted);
  }

  /** The subdivisions that have forms of their own in this country, sorted. */
  subdivisionsOf(country: string): string[] {
    const subs = new Set<string>();
    for (const f of this.#byCountry.get(country.toUpperCase()) ?? [])
      if (f.subdivision) subs.add(f.subdivision);
    return [...subs].sort();
  }

  byCode(code: string): LegalForm | null {
    return this.#byCode.get(code.toUpperCase()) ?? null;
  }

  /** The form's local name(s), e.g. "société par actions simplifiée"; null for an unknown or inactive code. */
  label(code: string): string | null {
    return this.byCode(code)?.label ?? null;
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
