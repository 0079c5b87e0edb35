/**
 * The screening registry's lifecycle inside the service: lists load in the background at start-up
 * (serving does not wait), a new list version is swapped in without a restart (admin reload, or the
 * periodic directory check), and each load is reported to `onLoaded` (the module records it in the
 * database and starts the re-screening of monitored aml checks when the version set changed).
 *
 * Every process holds its own in-memory index; nothing about a request is kept here.
 */
import { createHash } from 'node:crypto';
import { screeningSearchDuration, screeningSearches } from '../../ops/metrics.ts';
import { type ListVersion, ScreeningRegistry } from '../engine/registry.ts';
import type { ScreeningMatch, ScreeningQuery } from '../engine/search.ts';
import type { ListLoadResult } from '../entity.ts';
import type { LegalForms } from '../normalize.ts';
import { type LoadDirectory, loadDirectoryInChild } from './list-load.ts';
import { directoryFingerprint, directoryProblem, directoryStatSignature } from './reference-dir.ts';

export const HOW_TO_LOAD_LISTS =
  'set VERICASE_REFERENCE_DIR to a directory holding the list files (see docs/screening.md), or run `npx vericase data pull` to download the official lists; each process picks them up within VERICASE_SCREENING_WATCH_SECONDS (60 s by default), or at once with POST /admin/screening/reload (served when VERICASE_ADMIN_TOKEN is set) or a restart';

export interface LoadReport {
  versions: ListVersion[];
  /** Hash of the (source, version) set: equal keys = the same lists. Null when nothing is loaded. */
  versionsKey: string | null;
  loadedAt: string | null;
  dir: string | null;
  /** The version set differs from what this process had before. */
  changed: boolean;
}

export type ScreeningState = 'idle' | 'loading' | 'ready' | 'empty' | 'failed';

interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ScreeningServiceOptions {
  /** Where to load from, resolved again on every load (a later `data pull` is picked up). */
  resolveDir: () => string | null;
  registry?: ScreeningRegistry;
  logger?: Logger;
  onLoaded?: (report: LoadReport) => Promise<void>;
  /**
   * Reads, parses and indexes the directory's lists: by default in a child process (the event loop keeps
   * answering, the parsing's garbage goes with the child); `loadDirectoryInProcess` does it in this one.
   */
  loadDirectory?: LoadDirectory;
}

/** Raised when screening is asked for while no list is loaded; the routes answer 503. */
export class ScreeningUnavailableError extends Error {}

export function versionsKey(versions: Pick<ListVersion, 'source' | 'version'>[]): string | null {
  if (!versions.length) return null;
  const parts = versions.map((v) => `${v.source}@${v.version}`).sort();
  return `sha256:${createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16)}`;
}

const silent: Logger = { info() {}, warn() {}, error() {} };

/**
 * A reload found no list, or a list that lost most of its entries, while lists were in use: they
 * are kept (see `#loadFromDirectory`). The message is the notice.
 */
class KeptLists extends Error {
  /** `error`: the files look broken; `warn`: the directory is being replaced. */
  readonly level: 'warn' | 'error';
  constructor(message: string, level: 'warn' | 'error') {
    super(message);
    this.level = level;
  }
}

/**
 * A new version of a list with fewer than this share of the entries of the version in use is taken
 * for a file being written or copied (truncated, emptied), not for delistings: sanctions lists
 * shrink by a few entries a week. Screening against it would drop every hit of the missing entries
 * and approve checks automatically.
 */
const SHRINK_FLOOR = 0.5;

/** The lists in use that `next` would shrink past SHRINK_FLOOR or drop, as `source: before → after`. */
export function shrunkLists(
  current: readonly Pick<ListVersion, 'source' | 'entities'>[],
  next: readonly Pick<ListVersion, 'source' | 'entities'>[],
): string[] {
  const after = new Map(next.map((l) => [l.source, l.entities]));
  return current
    .filter((l) => l.entities > 0 && (after.get(l.source) ?? 0) < l.entities * SHRINK_FLOOR)
    .map((l) => `${l.source}: ${l.entities} → ${after.get(l.source) ?? 0} entries`);
}

export class ScreeningService {
  readonly registry: ScreeningRegistry;
  #resolveDir: () => string | null;
  #logger: Logger;
  #onLoaded: ((report: LoadReport) => Promise<void>) | undefined;
  #loadDirectory: LoadDirectory;
  #chain: Promise<unknown> = Promise.resolve();
  #pending = 0;
  #state: ScreeningState = 'idle';
  #lastError: string | null = null;
  #notice: string | null = null;
  #dir: string | null = null;
  #statSignature: string | null = null;
  #fingerprint: string | null = null;
  #key: string | null = null;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(options: ScreeningServiceOptions) {
    this.registry = options.registry ?? new ScreeningRegistry();
    this.#resolveDir = options.resolveDir;
    this.#logger = options.logger ?? silent;
    this.#onLoaded = options.onLoaded;
    this.#loadDirectory = options.loadDirectory ?? loadDirectoryInChild;
  }

  /** At least one list with entities is loaded: searches and aml checks can run. */
  get available(): boolean {
    return this.registry.ready && this.registry.versions.some((v) => v.entities > 0);
  }

  get state(): ScreeningState {
    return this.#state;
  }

  get lastError(): string | null {
    return this.#lastError;
  }

  /** Why the lists in use are not what the directory holds (a reload that found none kept them). */
  get notice(): string | null {
    return this.#notice;
  }

  get versions(): ListVersion[] {
    return this.registry.versions;
  }

  get versionsKey(): string | null {
    return this.#key;
  }

  get loadedAt(): string | null {
    return this.registry.snapshot?.loadedAt ?? null;
  }

  get dir(): string | null {
    return this.#dir;
  }

  /** Why screening cannot answer, and how to fix it (used by the 503 body and the aml error comment). */
  unavailableMessage(): string {
    if (this.#state === 'loading' || this.#state === 'idle')
      return 'The sanctions lists are still loading; retry in a few seconds';
    const why =
      this.#state === 'failed'
        ? `Loading the sanctions lists failed (${this.#lastError})`
        : this.#dir
          ? `No sanctions list is loaded: the reference directory ${this.#dir} ${directoryProblem(this.#dir) ?? 'holds no list files'}`
          : 'No sanctions list is loaded';
    return `${why}. To load lists, ${HOW_TO_LOAD_LISTS}.`;
  }

  /**
   * Seconds after which a request refused for want of lists may succeed: while they load, a few; when
   * none could be loaded, the directory watch's interval (an operator's fix is picked up then).
   */
  retryAfterSeconds(watchSeconds: number): number | undefined {
    if (this.available) return undefined;
    if (this.#state === 'loading' || this.#state === 'idle') return 5;
    return watchSeconds > 0 ? watchSeconds : undefined;
  }

  /** Screens with the current index. Throws ScreeningUnavailableError when no list is loaded. */
  search(query: ScreeningQuery): ScreeningMatch[] {
    if (!this.available) {
      screeningSearches.inc({ outcome: 'unavailable' });
      throw new ScreeningUnavailableError(this.unavailableMessage());
    }
    const started = performance.now();
    const matches = this.registry.search(query);
    screeningSearchDuration.observe((performance.now() - started) / 1000);
    screeningSearches.inc({ outcome: matches.length ? 'hits' : 'no_hits' });
    return matches;
  }

  /** Loads (again) from the reference directory. Loads are serialised; the report says what is in use. */
  load(options: { acceptShrunk?: boolean } = {}): Promise<LoadReport> {
    return this.#enqueue(() => this.#loadFromDirectory(options.acceptShrunk));
  }

  /** Swaps in already parsed lists (tests, custom feeds), with the same reporting as a load. */
  replace(results: ListLoadResult[], legalForms?: LegalForms): Promise<LoadReport> {
    return this.#enqueue(async () => {
      this.registry.replace(results, legalForms);
      this.#dir = null;
      this.#fingerprint = null;
      this.#statSignature = null;
      return this.#finish();
    });
  }

  /** Resolves once no load is running (or after `timeoutMs`). */
  async whenSettled(timeoutMs = 30_000): Promise<void> {
    if (this.#pending === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.#chain.catch(() => undefined),
      new Promise((r) => {
        timer = setTimeout(r, timeoutMs);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
  }

  /**
   * Reloads when the reference directory changed (another directory after a `data pull`, or other
   * file contents). Cheap when nothing changed: file sizes and times first, content hash only then.
   */
  async checkForChanges(): Promise<LoadReport | null> {
    if (this.#pending > 0) return null;
    const dir = this.#resolveDir();
    if (!dir) return null;
    if (dir === this.#dir && this.#statSignature) {
      const sig = await directoryStatSignature(dir);
      if (sig === this.#statSignature) return null;
      const fp = await directoryFingerprint(dir);
      if (fp === this.#fingerprint) {
        this.#statSignature = sig;
        return null;
      }
    }
    this.#logger.info({ dir }, 'reference directory changed: reloading the sanctions lists');
    return this.load();
  }

  /** Checks the directory every `intervalMs` (0 = never). */
  watch(intervalMs: number): void {
    if (!intervalMs || this.#timer) return;
    this.#timer = setInterval(() => {
      this.checkForChanges().catch((err) =>
        this.#logger.warn({ err }, 'checking the reference directory failed'),
      );
    }, intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  #enqueue(fn: () => Promise<LoadReport>): Promise<LoadReport> {
    this.#pending++;
    this.#state = 'loading';
    const run = this.#chain.catch(() => undefined).then(fn);
    this.#chain = run.finally(() => {
      this.#pending--;
    });
    return run;
  }

  async #loadFromDirectory(acceptShrunk = false): Promise<LoadReport> {
    const dir = this.#resolveDir();
    this.#dir = dir;
    if (!dir) {
      this.#state = this.available ? 'ready' : 'empty';
      this.#lastError = null;
      return this.#report(false);
    }
    const problem = directoryProblem(dir);
    // a mistyped VERICASE_REFERENCE_DIR says so at start-up, not "no list found"
    if (problem) this.#logger.warn({ dir }, `the reference directory ${dir} ${problem}`);
    const started = Date.now();
    let sig: string | null = null;
    let fp: string | null = null;
    try {
      await this.registry.loadPrepared(async (options) => {
        const load = await this.#loadDirectory(dir, options);
        sig = load.statSignature;
        fp = load.fingerprint;
        // A directory that held lists and now holds none is being replaced (a deploy, an rsync, a
        // volume remounted), not a decision to screen against nothing: the lists in use stay, and
        // the files that come back are a change like any other. A start without lists is empty.
        if (this.available && !load.prepared.lists.some((l) => l.entities > 0)) {
          throw new KeptLists(
            `The reference directory ${dir} holds no list now; the lists loaded at ${this.loadedAt} stay in ` +
              'use until lists are back (a restart without lists runs without them)',
            'warn',
          );
        }
        // So is a list that lost most of its entries (a file emptied or cut short while written)
        const shrunk = this.available && !acceptShrunk ? shrunkLists(this.versions, load.prepared.lists) : [];
        if (shrunk.length) {
          throw new KeptLists(
            `A list in ${dir} lost more than half of its entries (${shrunk.join('; ')}), which a truncated ` +
              `or half-copied file does and delistings do not: the lists loaded at ${this.loadedAt} stay in use. ` +
              'Put the whole file back, or accept the new lists with POST /admin/screening/reload?accept_shrunk=true (or a restart)',
            'error',
          );
        }
        return load.prepared;
      });
      this.#statSignature = sig;
      this.#fingerprint = fp;
      this.#lastError = null;
      this.#notice = null;
    } catch (err) {
      if (err instanceof KeptLists) {
        this.#statSignature = sig;
        this.#fingerprint = fp;
        this.#state = 'ready';
        this.#lastError = null;
        this.#notice = err.message;
        this.#logger[err.level]({ dir, lists: this.versions.length }, this.#notice);
        return this.#report(false);
      }
      this.#state = this.available ? 'ready' : 'failed';
      this.#lastError = String((err as Error)?.message ?? err);
      this.#logger.error({ err, dir }, 'loading the sanctions lists failed');
      return this.#report(false);
    }
    const report = await this.#finish();
    this.#logger.info(
      {
        dir,
        ms: Date.now() - started,
        lists: report.versions.map((v) => ({
          source: v.source,
          version: v.version,
          entities: v.entities,
          ...(v.malformed ? { malformed: v.malformed, errors: v.errors } : {}),
        })),
      },
      report.versions.length
        ? 'sanctions lists loaded'
        : 'no sanctions list found in the reference directory',
    );
    return report;
  }

  async #finish(): Promise<LoadReport> {
    const key = versionsKey(this.registry.versions);
    const changed = key !== this.#key;
    this.#key = key;
    this.#state = this.available ? 'ready' : 'empty';
    const report = this.#report(changed);
    if (this.#onLoaded && !this.#stopped) {
      await this.#onLoaded(report).catch((err) =>
        this.#logger.warn({ err }, 'recording the loaded list versions failed'),
      );
    }
    return report;
  }

  #report(changed: boolean): LoadReport {
    return {
      versions: this.registry.versions,
      versionsKey: this.#key,
      loadedAt: this.loadedAt,
      dir: this.#dir,
      changed,
    };
  }
}
