/**
 * Normalised sanctions/PEP list entity shared by every list loader and the matching engine.
 * Loaders map their source format onto this shape; the engine never looks at source-specific fields.
 */

export type EntityKind = 'person' | 'organisation' | 'vessel' | 'aircraft';

/** Sources the bundled loaders produce. Other strings are allowed for custom loaders. */
export type ListSource = 'ofac_sdn' | 'un_sc' | 'eu_fsf' | 'uk_hmt' | 'ftm' | (string & {});

export interface EntityAlias {
  name: string;
  /** 'weak' = low-quality alias (UN "Low", OFAC quoted a.k.a. in remarks, UK "Weak", FtM weakAlias). */
  strength?: 'strong' | 'weak';
}

export interface EntityIdentifier {
  /** Free-text document type as the list gives it, e.g. 'Passport', 'National ID No.', 'IMO'. */
  type: string;
  value: string;
}

export interface ScreeningEntity {
  /** Unique within `source`, e.g. the OFAC ent_num or the UN reference number. */
  id: string;
  source: ListSource;
  kind: EntityKind;
  /** Primary name as listed (not normalised). */
  name: string;
  aliases: EntityAlias[];
  /** 'yyyy-MM-dd' or 'yyyy' (year-only / approximate dates). */
  birth_dates: string[];
  /** ISO 3166-1 alpha-2 when the country name could be mapped, else the list's text. */
  nationalities: string[];
  countries: string[];
  identifiers: EntityIdentifier[];
  addresses: string[];
  programs: string[];
  /** 'sanction', 'pep', 'warning', ... */
  list_types: string[];
  gender?: 'male' | 'female';
  /** What the list says about the entry, as given: the reason for listing, notes (OFAC Remarks, UN COMMENTS1, ...). */
  remarks?: string;
  /** When the entry was listed, 'yyyy-MM-dd', when the list says. */
  listed_on?: string;
}

export interface ListLoadResult {
  source: ListSource;
  /** Content-derived version: `<date found in the file>/sha256:<12 hex>` or `sha256:<12 hex>`. */
  version: string;
  /** Publication date found in the file itself, if any (e.g. UN dateGenerated). */
  published?: string;
  /** File or directory the list came from, relative to the reference directory (set by the directory loader). */
  origin?: string;
  entities: ScreeningEntity[];
  /** Rows/records that could not be turned into an entity (never fatal). */
  malformed: number;
  /** The first few problems, for logs. */
  errors: string[];
}

export function emptyEntity(source: ListSource, id: string, kind: EntityKind, name: string): ScreeningEntity {
  return {
    id,
    source,
    kind,
    name,
    aliases: [],
    birth_dates: [],
    nationalities: [],
    countries: [],
    identifiers: [],
    addresses: [],
    programs: [],
    list_types: [],
  };
}
