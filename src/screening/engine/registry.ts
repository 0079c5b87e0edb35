/**
 * Holds the current screening index and the versions of the lists it was built from. A new list
 * version is swapped in without a restart: `replace`/`load` build the complete new index first and only
 * then swap the reference, so concurrent searches always see either the old or the new index, never a
 * half-built one. If two loads overlap, the one that started last wins.
 */
import type { ListLoadResult } from '../entity.ts';
import { loadLegalFormsFromDirectory, loadReferenceDirectory } from '../lists/load-directory.ts';
import type { LegalForms } from '../normalize.ts';
import { buildIndex, type IndexOptions, type ScreeningIndex } from './build.ts';
import { type ScreeningMatch, type ScreeningQuery, search } from './search.ts';

export interface ListVersion {
  source: string;
  version: string;
  published?: string;
  origin?: string;
  entities: number;
  malformed: number;
  errors: string[];
}

export interface RegistrySnapshot {
  index: ScreeningIndex;
  lists: ListVersion[];
  /** Version of the legal-form list used, when loaded from an ELF file. */
  legalForms?: string;
  loadedAt: string;
}

export class ScreeningNotReadyError extends Error {
  constructor() {
    super('screening lists are not loaded yet');
    this.name = 'ScreeningNotReadyError';
  }
}

export class ScreeningRegistry {
  #current: RegistrySnapshot | undefined;
  #options: IndexOptions;
  #generation = 0;

  constructor(options: IndexOptions = {}) {
    this.#options = options;
  }

  /** True once an index has been built. */
  get ready(): boolean {
    return this.#current !== undefined;
  }

  /** Current snapshot (index + list versions), or undefined before the first load. */
  get snapshot(): RegistrySnapshot | undefined {
    return this.#current;
  }

  get versions(): ListVersion[] {
    return this.#current?.lists ?? [];
  }

  /** Load all known lists (and the ELF legal forms) from a reference directory, then swap. */
  async load(dir: string | URL): Promise<ListVersion[]> {
    const generation = ++this.#generation;
    const [results, elf] = await Promise.all([loadReferenceDirectory(dir), loadLegalFormsFromDirectory(dir)]);
    return this.#swap(results, elf?.legalForms, elf?.version, generation);
  }

  /** Build an index from already loaded lists, then swap it in. */
  replace(results: ListLoadResult[], legalForms?: LegalForms): ListVersion[] {
    return this.#swap(results, legalForms, undefined, ++this.#generation);
  }

  #swap(
    results: ListLoadResult[],
    legalForms: LegalForms | undefined,
    legalVersion: string | undefined,
    generation: number,
  ): ListVersion[] {
    const forms = legalForms ?? this.#options.legalForms;
    const index = buildIndex(
      results.flatMap((r) => r.entities),
      { ...this.#options, legalForms: forms },
    );
    const lists = results.map((r) => ({
      source: r.source,
      version: r.version,
      published: r.published,
      origin: r.origin,
      entities: r.entities.length,
      malformed: r.malformed,
      errors: r.errors,
    }));
    // A load that started after this one has already swapped (or will): do not go back in time.
    if (generation >= this.#generation || !this.#current) {
      this.#current = { index, lists, legalForms: legalVersion, loadedAt: new Date().toISOString() };
    }
    return lists;
  }

  /** Search the current index. Throws ScreeningNotReadyError before the first load. */
  search(query: ScreeningQuery): ScreeningMatch[] {
    const current = this.#current;
    if (!current) throw new ScreeningNotReadyError();
    return search(current.index, query);
  }
}
