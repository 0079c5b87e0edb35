/**
 * The ISO 20275 Entity Legal Forms (ELF) code list as GLEIF publishes it: one CSV, 16 quoted columns,
 * one row per legal form and language (a form with names in three languages has three rows under the
 * same ELF code). Read here once for both users: screening (abbreviations, for name normalisation)
 * and company data (the legal-form index behind /v1/company-data/entity-legal-forms).
 *
 * Columns are found by their header names, so a column added or moved in a later edition does not
 * shift the others.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';

/** One row of the list. Empty cells are empty strings; abbreviation cells are split on ';'. */
export interface ElfRow {
  code: string;
  /** ISO 3166-1 alpha-2; empty for the two placeholder codes valid everywhere (8888, 9999). */
  country: string;
  /** ISO 3166-2 (e.g. US-DE) when the form exists in one subdivision only. */
  subdivision: string;
  /** The subdivision's name as the list spells it (e.g. Delaware). */
  jurisdiction: string;
  localName: string;
  /** Language name in English (e.g. French). */
  language: string;
  /** ISO 639-1 language code (e.g. fr). */
  languageCode: string;
  transliteratedName: string;
  abbreviationsLocal: string[];
  abbreviationsTransliterated: string[];
  /** ACTV or INAC. */
  status: string;
  /** Free text on the last change (for the placeholder codes: what they are for). */
  reason: string;
}

const COLUMNS = {
  code: 'ELF Code',
  country: 'Country Code (ISO 3166-1)',
  jurisdiction: 'Jurisdiction of formation',
  subdivision: 'Country sub-division code (ISO 3166-2)',
  localName: 'Entity Legal Form name Local name',
  language: 'Language',
  languageCode: 'Language Code (ISO 639-1)',
  transliteratedName: 'Entity Legal Form name Transliterated name (per ISO 01-140-10)',
  abbreviationsLocal: 'Abbreviations Local language',
  abbreviationsTransliterated: 'Abbreviations transliterated',
  status: 'ELF Status ACTV/INAC',
  reason: 'Reason',
} as const;
const OPTIONAL = new Set<string>([COLUMNS.reason, COLUMNS.jurisdiction]);

const EMPTY: string[] = [];
Object.freeze(EMPTY);

/** Splits an abbreviation cell ("S.A.;S/A") into its trimmed, non-empty values. */
export function splitAbbreviations(cell: string): string[] {
  if (!cell) return EMPTY;
  const out = cell
    .split(';')
    .map((a) => a.trim())
    .filter(Boolean);
  return out.length ? out : EMPTY;
}

/** Parses the whole CSV text. Throws when a required column is missing (not an ELF file). */
export function parseElfCsv(text: string): ElfRow[] {
  const records = parse(text, {
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
  }) as string[][];
  const header = (records[0] ?? []).map((h) => h.trim());
  const at = {} as Record<keyof typeof COLUMNS, number>;
  for (const [key, name] of Object.entries(COLUMNS) as [keyof typeof COLUMNS, string][]) {
    at[key] = header.indexOf(name);
    if (at[key] < 0 && !OPTIONAL.has(name)) throw new Error(`not an ISO 20275 ELF list: no "${name}" column`);
  }
  const cell = (r: string[], i: number) => (i >= 0 ? (r[i] ?? '').trim() : '');
  const rows: ElfRow[] = [];
  for (let n = 1; n < records.length; n++) {
    const r = records[n];
    const code = cell(r, at.code);
    if (!code) continue;
    rows.push({
      code,
      country: cell(r, at.country),
      subdivision: cell(r, at.subdivision),
      jurisdiction: cell(r, at.jurisdiction),
      localName: cell(r, at.localName),
      language: cell(r, at.language),
      languageCode: cell(r, at.languageCode),
      transliteratedName: cell(r, at.transliteratedName),
      abbreviationsLocal: splitAbbreviations(cell(r, at.abbreviationsLocal)),
      abbreviationsTransliterated: splitAbbreviations(cell(r, at.abbreviationsTransliterated)),
      status: cell(r, at.status),
      reason: cell(r, at.reason),
    });
  }
  return rows;
}

/** `elf/iso-20275-<date>.csv` files sort by edition date: the last one is the newest. */
const ELF_FILE = /^iso-20275.*\.csv$/i;

/** The newest ELF file's name under `<dir>/elf/`, or undefined when there is none. */
export async function newestElfFile(dir: string): Promise<{ path: string; name: string } | undefined> {
  const elfDir = join(dir, 'elf');
  let names: string[];
  try {
    names = (await readdir(elfDir)).filter((n) => ELF_FILE.test(n)).sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
  const name = names[names.length - 1];
  return name ? { path: join(elfDir, name), name } : undefined;
}
