/**
 * Sanctions screening library (no HTTP, no database).
 *
 * Typical use by the service:
 *
 *   const registry = new ScreeningRegistry();
 *   await registry.load(process.env.VERICASE_REFERENCE_DIR ?? defaultDir);   // build index, swap in
 *   registry.versions;                     // [{ source, version, published, entities, malformed, ... }]
 *   registry.search({ name: 'Saddam Husein', kind: 'person', birth_date: '1937', fuzziness: 0.5 });
 *   // → [{ entity, score, matched_name, explanation }] best first, score ≥ threshold
 *   await registry.load(dir);              // later: reload a new list version without restart
 *
 * Lower-level pieces:
 *   loadReferenceDirectory(dir): Promise<ListLoadResult[]>           all known list files under dir
 *   loadOfacSdn({sdn, add?, alt?, comments?}) / loadUnConsolidated(xml) / loadEuFsf(csv) / loadUkHmt(csv)
 *     / loadFtm(jsonl, source?) : ListLoadResult                     pure, never throw on bad rows
 *   buildIndex(entities, { legalForms? }): ScreeningIndex
 *   search(index, query): ScreeningMatch[]
 *   fuzzinessToThreshold(f) = 0.85 up to f = 0.5, then 1 − 0.3·f (lower f: stricter spelling only)
 *   normalizeName / nameTokens / normalizeText, legalFormsFromElfCsv(csv)
 *
 * See docs/screening.md for formats, normalisation, scoring and measured figures.
 */
export { countryCode } from './countries.ts';
export { buildIndex, type IndexOptions, type ScreeningIndex } from './engine/build.ts';
export {
  type ListVersion,
  type RegistrySnapshot,
  ScreeningNotReadyError,
  ScreeningRegistry,
} from './engine/registry.ts';
export {
  DEFAULT_FUZZINESS,
  fuzzinessToThreshold,
  type MatchExplanation,
  type QualifierEffect,
  type ScreeningMatch,
  type ScreeningQuery,
  search,
} from './engine/search.ts';
export type {
  EntityAlias,
  EntityIdentifier,
  EntityKind,
  ListLoadResult,
  ListSource,
  ScreeningEntity,
} from './entity.ts';
export {
  loadEuFsf,
  loadFtm,
  loadLegalFormsFromDirectory,
  loadOfacSdn,
  loadOfacSdnDirectory,
  loadReferenceDirectory,
  loadUkHmt,
  loadUnConsolidated,
  type OfacSdnFiles,
} from './lists/index.ts';
export {
  DEFAULT_LEGAL_FORMS,
  type LegalForms,
  legalFormsFromElfCsv,
  nameTokens,
  normalizeIdentifier,
  normalizeName,
  normalizeText,
} from './normalize.ts';
