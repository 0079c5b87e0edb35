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

/** An index and the versions of the lists it was built from, ready to be swapped in (see `loadPrepared`). */
export interface PreparedLists {
  index: ScreeningIndex;
  lists: ListVersion[];
  /** Version of the legal-form list used, when loaded from an ELF file. */
  legalForms?: string;
}

/** Reads and parses every list of a reference directory (and its ELF legal forms), then builds their index. */
export async function prepareLists(dir: string | URL, options: IndexOptions = {}): Promise<PreparedLists> {
  const [results, elf] = await Promise.all([loadReferenceDirectory(dir), loadLegalFormsFromDirectory(dir)]);
  return prepareFromResults(results, elf?.legalForms, elf?.version, options);
}

function prepareFromResults(
  results: ListLoadResult[],
  legalForms: LegalForms | undefined,
  legalVersion: string | undefined,
  options: IndexOptions,
): PreparedLists {
  const forms = legalForms ?? options.legalForms;
  const index = buildIndex(
    results.flatMap((r) => r.entities),
    { ...options, legalForms: forms },
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
  return { index, lists, legalForms: legalVersion };
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

  /** The options every index is built with (a loader running elsewhere builds with them too). */
  get options(): IndexOptions {
    return this.#options;
  }

  /** Load all known lists (and the ELF legal forms) from a reference directory, then swap. */
  load(dir: string | URL): Promise<ListVersion[]> {
    return this.loadPrepared((options) => prepareLists(dir, options));
  }

  /**
   * Swap in lists prepared by `prepare` (in this thread: `load`; or in a child process, see
   * src/screening/service/list-load.ts), with the same ordering as `load`.
   */
  async loadPrepared(prepare: (options: IndexOptions) => Promise<PreparedLists>): Promise<ListVersion[]> {
    const generation = ++this.#generation;
    return this.#swap(await prepare(this.#options), generation);
  }

  /** Build an index from already loaded lists, then swap it in. */
  replace(results: ListLoadResult[], legalForms?: LegalForms): ListVersion[] {
    const generation = ++this.#generation;
    return this.#swap(prepareFromResults(results, legalForms, undefined, this.#options), generation);
  }

  #swap({ index, lists, legalForms }: PreparedLists, generation: number): ListVersion[] {
    // A load that started after this one has already swapped (or will): do not go back in time.
    if (generation >= this.#generation || !this.#current) {
      this.#current = { index, lists, legalForms, loadedAt: new Date().toISOString() };
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
