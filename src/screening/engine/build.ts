/**
 * In-memory screening index. Every entity name and alias becomes a "name record" (normalised tokens);
 * postings map keys to record numbers so a query only ever scores records that share something with it:
 *
 * - `d<token>` for every token and, for tokens of ≥ 4 chars, every single-character deletion of it
 *   (SymSpell-style: two tokens within one edit/transposition of each other share a key);
 * - `m<key>` for the double-metaphone keys (phonetic / transliteration variants: Mohammed ~ Muhammad);
 * - tokens beginning with the glued Arabic article ('al'/'el') are also posted without it.
 *
 * Exact matching uses a table from the sorted token multiset to records; identifiers have their own table.
 *
 * Layout (the index stays resident in every process, so it is kept compact; the lists' 130k keys and
 * 530k postings took ~40 MB as a Map of small arrays):
 * - keyed lists (`KeyedLists`: postings, identifiers) keep their keys in one concatenated string, find a
 *   key through an open-addressing table of key numbers (compared in full, so a hash collision never
 *   adds nor drops a candidate) and their values in one Int32Array with offsets, each list in the order
 *   it was built in;
 * - name records are columns of typed arrays; their tokens are numbers into one table of distinct tokens
 *   (weights are computed from the tokens when scoring);
 * - entities are kept as their JSON text and parsed again when a search returns them (a few per search);
 *   the kind and list types that filter candidates are columns.
 */
import { doubleMetaphone } from 'double-metaphone';
import type { EntityKind, ScreeningEntity } from '../entity.ts';
import {
  DEFAULT_LEGAL_FORMS,
  type LegalForms,
  listedNameForms,
  type NameVariant,
  nameTokens,
  normalizeIdentifier,
} from '../normalize.ts';
import type { TokenStats } from './score.ts';

export interface IndexOptions {
  /** Legal-form designations stripped from organisation names (default: built-in list). */
  legalForms?: LegalForms;
}

export const MIN_DELETE_LEN = 4;

export function tokenWeight(token: string): number {
  return Math.min(Math.max(token.length, 1), 12);
}

/**
 * Common-token weighting: a match on a name token that many listed entities carry (`muhammad`, `ali`,
 * `jose`) says less about which entity it is than a match on a rare one, so token weights are scaled by
 *
 *   rarity(n) = 1 / (1 + alpha · ln(max(1, n / (N · share))))
 *
 * where n is the number of listed entities with the token in one of their names and N the number of
 * entities. Tokens on at most `share` of the entities (1 in 1,000: 8 of the 8,382 shipped) keep weight 1;
 * above that the weight falls with the logarithm of the frequency. Computed from the loaded lists when the
 * index is built (deterministic: counts only); a query token not on any list is rare (1).
 */
export const COMMON_TOKEN = {
  alpha: 0.3,
  share: 0.001,
  /**
   * A token carried by at least this many listed entities is a known name: two different known names
   * that do not sound alike are not paired (`khalid` ≠ `khalil`; see scoreTokens). A token with a glued
   * article counts the entities of the name without it too (`alkhalil`: those with `alkhalil` plus those
   * with `khalil`), since it is that name: see knownCount.
   */
  knownEntities: 2,
};

/** The name without its glued Arabic article (`alkhalil` → `khalil`), or undefined (as tokenKeys). */
function articleBase(token: string): string | undefined {
  return token.length >= 5 && (token.startsWith('al') || token.startsWith('el')) ? token.slice(2) : undefined;
}

export function tokenRarity(entitiesWithToken: number, entities: number): number {
  const floor = Math.max(1, entities * COMMON_TOKEN.share);
  if (entitiesWithToken <= floor) return 1;
  return 1 / (1 + COMMON_TOKEN.alpha * Math.log(entitiesWithToken / floor));
}

/** Index keys for one token (shared by index and query side). */
export function tokenKeys(token: string, out: Set<string>): void {
  const bases = [token];
  if (token.length >= 5 && (token.startsWith('al') || token.startsWith('el'))) bases.push(token.slice(2));
  for (const t of bases) {
    out.add(`d${t}`);
    if (t.length >= MIN_DELETE_LEN) {
      for (let i = 0; i < t.length; i++) out.add(`d${t.slice(0, i)}${t.slice(i + 1)}`);
    }
    if (t.length >= 2 && !/\d/.test(t)) {
      const [p, s] = doubleMetaphone(t);
      if (p) out.add(`m${p}`);
      if (s && s !== p) out.add(`m${s}`);
    }
  }
}

export function exactKey(tokens: string[]): string {
  return [...tokens].sort().join(' ');
}

export function variantOf(kind: EntityKind): NameVariant {
  return kind === 'person' ? 'person' : 'org';
}

/** 32-bit FNV-1a of the UTF-16 code units, with a final avalanche (the table uses the low bits). */
function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Smallest power of two ≥ 2·n (load factor ≤ 0.5), at least 16. */
function tableSize(n: number): number {
  let size = 16;
  while (size < n * 2) size *= 2;
  return size;
}

function growInt32(a: Int32Array, need: number): Int32Array {
  if (need <= a.length) return a;
  const b = new Int32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

export interface KeyedListsParts {
  /** Every key, concatenated; key number k is keys.slice(keyStart[k], keyStart[k + 1]). */
  keys: string;
  keyStart: Int32Array;
  /** Open-addressing table of key numbers + 1 (0 = empty). */
  slots: Int32Array;
  start: Int32Array;
  values: Int32Array;
}

/**
 * String keys → lists of int32 values, in a handful of flat arrays. A key is found through its hash and
 * then compared in full with the stored key: a lookup answers exactly what a Map<string, number[]> would.
 */
export class KeyedLists {
  readonly size: number;
  /** Every value; the list of key number k is values[start[k] .. start[k + 1]). */
  readonly values: Int32Array;
  readonly start: Int32Array;
  readonly #keys: string;
  readonly #keyStart: Int32Array;
  readonly #slots: Int32Array;

  /** Lays out the lists of `keys` (key number k = keys[k]). */
  static build(keys: string[], start: Int32Array, values: Int32Array): KeyedLists {
    const keyStart = new Int32Array(keys.length + 1);
    for (let k = 0; k < keys.length; k++) keyStart[k + 1] = keyStart[k] + keys[k].length;
    const slots = new Int32Array(tableSize(keys.length));
    const mask = slots.length - 1;
    for (let k = 0; k < keys.length; k++) {
      let s = hashString(keys[k]) & mask;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = k + 1;
    }
    return new KeyedLists({ keys: keys.join(''), keyStart, slots, start, values });
  }

  /** From the parts of a built one (`parts()`), e.g. sent by another thread. */
  constructor(parts: KeyedListsParts) {
    this.size = parts.keyStart.length - 1;
    this.start = parts.start;
    this.values = parts.values;
    this.#keys = parts.keys;
    this.#keyStart = parts.keyStart;
    this.#slots = parts.slots;
  }

  /** What it is made of: one string and typed arrays (structured-clonable, the arrays transferable). */
  parts(): KeyedListsParts {
    return {
      keys: this.#keys,
      keyStart: this.#keyStart,
      slots: this.#slots,
      start: this.start,
      values: this.values,
    };
  }

  /** The key number of `key`, or -1. */
  find(key: string): number {
    const slots = this.#slots;
    const mask = slots.length - 1;
    const keys = this.#keys;
    const keyStart = this.#keyStart;
    const len = key.length;
    for (let s = hashString(key) & mask; ; s = (s + 1) & mask) {
      const k = slots[s] - 1;
      if (k < 0) return -1;
      const from = keyStart[k];
      if (keyStart[k + 1] - from !== len) continue;
      let i = 0;
      while (i < len && keys.charCodeAt(from + i) === key.charCodeAt(i)) i++;
      if (i === len) return k;
    }
  }

  /** The values listed under `key` (a view, in the order they were added), or undefined. */
  get(key: string): Int32Array | undefined {
    const k = this.find(key);
    return k < 0 ? undefined : this.values.subarray(this.start[k], this.start[k + 1]);
  }

  has(key: string): boolean {
    return this.find(key) >= 0;
  }
}

/** Collects (key, value) pairs, then lays them out as KeyedLists (values of a key keep their order). */
class KeyedListsBuilder {
  readonly #ids = new Map<string, number>();
  #pairKey: Int32Array = new Int32Array(1024);
  #pairValue: Int32Array = new Int32Array(1024);
  #pairs = 0;

  add(key: string, value: number): void {
    let id = this.#ids.get(key);
    if (id === undefined) {
      id = this.#ids.size;
      this.#ids.set(key, id);
    }
    if (this.#pairs === this.#pairKey.length) {
      this.#pairKey = growInt32(this.#pairKey, this.#pairs + 1);
      this.#pairValue = growInt32(this.#pairValue, this.#pairs + 1);
    }
    this.#pairKey[this.#pairs] = id;
    this.#pairValue[this.#pairs++] = value;
  }

  get pairs(): number {
    return this.#pairs;
  }

  build(): KeyedLists {
    const n = this.#ids.size;
    const start = new Int32Array(n + 1);
    for (let p = 0; p < this.#pairs; p++) start[this.#pairKey[p] + 1]++;
    for (let k = 0; k < n; k++) start[k + 1] += start[k];
    const fill = start.slice(0, n);
    const values = new Int32Array(this.#pairs);
    for (let p = 0; p < this.#pairs; p++) values[fill[this.#pairKey[p]]++] = this.#pairValue[p];
    return KeyedLists.build([...this.#ids.keys()], start, values);
  }
}

/** Interns values into a table, giving each distinct one a number. */
class Interner<T> {
  readonly table: T[] = [];
  readonly #ids = new Map<string, number>();

  id(key: string, make: () => T): number {
    let id = this.#ids.get(key);
    if (id === undefined) {
      id = this.table.length;
      this.table.push(make());
      this.#ids.set(key, id);
    }
    return id;
  }
}

export interface IndexStats {
  entities: number;
  records: number;
  keys: number;
  postings: number;
  buildMs: number;
}

/** What a ScreeningIndex is built from (see the class's fields). */
export interface IndexFields {
  legalForms: LegalForms;
  stats: IndexStats;
  postings: KeyedLists;
  identifiers: KeyedLists;
  identifierEntity: Int32Array;
  identifierIndex: Int32Array;
  recordEntity: Int32Array;
  recordAlias: Int32Array;
  recordWeak: Uint8Array;
  tokenStart: Int32Array;
  tokenIds: Int32Array;
  tokens: string[];
  tokenEntities: Int32Array;
  entityKind: Uint8Array;
  kinds: EntityKind[];
  entityListTypes: Int32Array;
  listTypeSets: ReadonlySet<string>[];
  entityJson: string[];
}

/**
 * A ScreeningIndex as plain data, to send it to another thread (postMessage): typed arrays (to transfer,
 * `transfer` lists their buffers), strings, arrays and sets (structured clone). `legalForms` is null for
 * the built-in list (the receiving thread has its own). No field is computed again on arrival but the
 * token rarity factors and known-name flags (one pass over the distinct tokens' counts).
 */
export interface IndexTransfer extends Omit<IndexFields, 'legalForms' | 'postings' | 'identifiers'> {
  legalForms: LegalForms | null;
  postings: KeyedListsParts;
  identifiers: KeyedListsParts;
  exactSlots: Int32Array;
  exactHashes: Int32Array;
}

/**
 * The built index. Read-only once built; a new list version builds a new one.
 *
 * Name record `r` belongs to entity `recordEntity[r]`, is its primary name (`recordAlias[r]` = -1) or
 * alias number `recordAlias[r]`, and has the tokens `tokens[tokenIds[tokenStart[r] .. tokenStart[r + 1])]`.
 */
export class ScreeningIndex {
  readonly legalForms: LegalForms;
  readonly stats: IndexStats;
  /** Postings: index key → record numbers, ascending. */
  readonly postings: KeyedLists;
  /** Normalised identifier → hit numbers (one per entity, the first of its identifiers that has that value). */
  readonly identifiers: KeyedLists;
  readonly identifierEntity: Int32Array;
  /** Position of the identifier in the entity's `identifiers`. */
  readonly identifierIndex: Int32Array;
  /** Exact-match table: the sorted token multiset of every record → its records (see `exact`). */
  readonly #exactSlots: Int32Array;
  readonly #exactHashes: Int32Array;
  readonly recordEntity: Int32Array;
  readonly recordAlias: Int32Array;
  /** 1 when the record comes from weak aliases only. */
  readonly recordWeak: Uint8Array;
  readonly tokenStart: Int32Array;
  readonly tokenIds: Int32Array;
  /** Distinct tokens of all records. */
  readonly tokens: string[];
  /** Per token number: how many entities have the token in one of their names (see COMMON_TOKEN). */
  readonly tokenEntities: Int32Array;
  /** Per token number: its rarity factor (1 = rare, see tokenRarity), from tokenEntities. */
  readonly tokenRarity: Float64Array;
  /** Per token number: 1 when it is a known name (see COMMON_TOKEN.knownEntities and knownCount). */
  readonly tokenKnown: Uint8Array;
  /** Token → token number, for query tokens; made on first use. */
  #tokenNumbers: Map<string, number> | undefined;
  /** Entity kind, as a number into `kinds`. */
  readonly entityKind: Uint8Array;
  readonly kinds: EntityKind[];
  /** List types of the entity, as a number into `listTypeSets`. */
  readonly entityListTypes: Int32Array;
  readonly listTypeSets: ReadonlySet<string>[];
  readonly #entityJson: string[];

  /** `exact`: the exact-match table of an index built before (see `indexTransfer`); computed when absent. */
  constructor(fields: IndexFields, exact?: { slots: Int32Array; hashes: Int32Array }) {
    this.legalForms = fields.legalForms;
    this.stats = fields.stats;
    this.postings = fields.postings;
    this.identifiers = fields.identifiers;
    this.identifierEntity = fields.identifierEntity;
    this.identifierIndex = fields.identifierIndex;
    this.recordEntity = fields.recordEntity;
    this.recordAlias = fields.recordAlias;
    this.recordWeak = fields.recordWeak;
    this.tokenStart = fields.tokenStart;
    this.tokenIds = fields.tokenIds;
    this.tokens = fields.tokens;
    this.tokenEntities = fields.tokenEntities;
    this.tokenRarity = new Float64Array(this.tokens.length);
    const entityCount = fields.entityJson.length;
    for (let t = 0; t < this.tokens.length; t++)
      this.tokenRarity[t] = tokenRarity(this.tokenEntities[t], entityCount);
    this.tokenKnown = new Uint8Array(this.tokens.length);
    for (let t = 0; t < this.tokens.length; t++)
      this.tokenKnown[t] = this.knownCount(this.tokens[t]) >= COMMON_TOKEN.knownEntities ? 1 : 0;
    this.entityKind = fields.entityKind;
    this.kinds = fields.kinds;
    this.entityListTypes = fields.entityListTypes;
    this.listTypeSets = fields.listTypeSets;
    this.#entityJson = fields.entityJson;
    if (exact) {
      this.#exactSlots = exact.slots;
      this.#exactHashes = exact.hashes;
      return;
    }
    const records = this.recordEntity.length;
    this.#exactSlots = new Int32Array(tableSize(records));
    this.#exactHashes = new Int32Array(this.#exactSlots.length);
    const mask = this.#exactSlots.length - 1;
    // Inserted in record order: along a probe sequence, the records of one key come in ascending order.
    for (let r = 0; r < records; r++) {
      const h = hashString(exactKey(this.recordTokens(r))) | 0;
      let s = h & mask;
      while (this.#exactSlots[s] !== 0) s = (s + 1) & mask;
      this.#exactSlots[s] = r + 1;
      this.#exactHashes[s] = h;
    }
  }

  /** Everything the index is made of, as plain data (see `indexTransfer`). */
  toTransfer(): IndexTransfer {
    return {
      legalForms: this.legalForms === DEFAULT_LEGAL_FORMS ? null : this.legalForms,
      stats: this.stats,
      postings: this.postings.parts(),
      identifiers: this.identifiers.parts(),
      identifierEntity: this.identifierEntity,
      identifierIndex: this.identifierIndex,
      recordEntity: this.recordEntity,
      recordAlias: this.recordAlias,
      recordWeak: this.recordWeak,
      tokenStart: this.tokenStart,
      tokenIds: this.tokenIds,
      tokens: this.tokens,
      tokenEntities: this.tokenEntities,
      entityKind: this.entityKind,
      kinds: this.kinds,
      entityListTypes: this.entityListTypes,
      listTypeSets: this.listTypeSets,
      entityJson: this.#entityJson,
      exactSlots: this.#exactSlots,
      exactHashes: this.#exactHashes,
    };
  }

  get entityCount(): number {
    return this.#entityJson.length;
  }

  get recordCount(): number {
    return this.recordEntity.length;
  }

  /** Entity number `i`, as a new object (equal to the one the index was built from). */
  entity(i: number): ScreeningEntity {
    return JSON.parse(this.#entityJson[i]) as ScreeningEntity;
  }

  /** Every entity, as new objects (for tests and tools: the engine reads the one it needs with `entity`). */
  get entities(): ScreeningEntity[] {
    return this.#entityJson.map((json) => JSON.parse(json) as ScreeningEntity);
  }

  kindOf(entity: number): EntityKind {
    return this.kinds[this.entityKind[entity]];
  }

  recordTokenCount(r: number): number {
    return this.tokenStart[r + 1] - this.tokenStart[r];
  }

  /** The record's normalised tokens (a new array). */
  recordTokens(r: number): string[] {
    const from = this.tokenStart[r];
    const out = new Array<string>(this.tokenStart[r + 1] - from);
    for (let i = 0; i < out.length; i++) out[i] = this.tokens[this.tokenIds[from + i]];
    return out;
  }

  /** How many listed entities carry `token` in one of their names (0 for a token on no list). */
  entitiesWith(token: string): number {
    if (!this.#tokenNumbers) {
      this.#tokenNumbers = new Map();
      for (let t = 0; t < this.tokens.length; t++) this.#tokenNumbers.set(this.tokens[t], t);
    }
    const t = this.#tokenNumbers.get(token);
    return t === undefined ? 0 : this.tokenEntities[t];
  }

  /**
   * How many listed entities carry the name `token`: with a glued article, those that carry it without
   * the article too (`alkhalil` is the name `khalil`, which many carry, even if one entity only writes
   * it with the article). Only for known-name flags; rarity counts the token as written.
   */
  knownCount(token: string): number {
    const base = articleBase(token);
    // (a base of three letters, `alasa` → `asa`, is left out: the known-name rule is for four letters or
    // more, shorter tokens have their own rules, and a typo easily gives a three-letter name)
    return this.entitiesWith(token) + (base && base.length > 3 ? this.entitiesWith(base) : 0);
  }

  /** Rarity and known-name flags of tokens (a query's; see COMMON_TOKEN). */
  tokenStats(tokens: string[]): TokenStats {
    return {
      rarity: tokens.map((t) => {
        const n = this.entitiesWith(t);
        return n ? tokenRarity(n, this.entityCount) : 1;
      }),
      known: tokens.map((t) => this.knownCount(t) >= COMMON_TOKEN.knownEntities),
    };
  }

  /** Rarity and known-name flags of the record's tokens (new arrays, in token order). */
  recordStats(r: number): TokenStats {
    const from = this.tokenStart[r];
    const n = this.tokenStart[r + 1] - from;
    const rarity = new Array<number>(n);
    const known = new Array<boolean>(n);
    for (let i = 0; i < n; i++) {
      const t = this.tokenIds[from + i];
      rarity[i] = this.tokenRarity[t];
      known[i] = this.tokenKnown[t] === 1;
    }
    return { rarity, known };
  }

  /** The record's name as listed, given its entity. */
  recordName(r: number, entity: ScreeningEntity): string {
    const alias = this.recordAlias[r];
    return alias < 0 ? entity.name : entity.aliases[alias].name;
  }

  /** Exact matching: records whose sorted token multiset is `key` (ascending), as a Map<string, number[]>. */
  readonly exact = {
    get: (key: string): number[] | undefined => {
      const slots = this.#exactSlots;
      const mask = slots.length - 1;
      const h = hashString(key) | 0;
      const out: number[] = [];
      for (let s = h & mask; slots[s] !== 0; s = (s + 1) & mask) {
        if (this.#exactHashes[s] !== h) continue;
        const r = slots[s] - 1;
        if (exactKey(this.recordTokens(r)) === key) out.push(r);
      }
      return out.length ? out : undefined;
    },
    has: (key: string): boolean => this.exact.get(key) !== undefined,
  };
}

/** Build the index. Pure: the input entities are not modified (nor kept: the index holds copies). */
export function buildIndex(entities: ScreeningEntity[], options: IndexOptions = {}): ScreeningIndex {
  const started = performance.now();
  const legalForms = options.legalForms ?? DEFAULT_LEGAL_FORMS;
  const postings = new KeyedListsBuilder();
  const identifiers = new KeyedListsBuilder();
  const identifierEntity: number[] = [];
  const identifierIndex: number[] = [];
  /** Last entity listed under each identifier (entities come in order: one hit per entity). */
  const identifierLast = new Map<string, number>();
  const recordEntity: number[] = [];
  const recordAlias: number[] = [];
  const recordWeak: number[] = [];
  const tokenStart: number[] = [0];
  const tokenIds: number[] = [];
  const tokens = new Interner<string>();
  const kinds = new Interner<EntityKind>();
  const listTypeSets = new Interner<ReadonlySet<string>>();
  const entityKind = new Uint8Array(entities.length);
  const entityListTypes = new Int32Array(entities.length);
  const entityJson: string[] = new Array(entities.length);
  const keys = new Set<string>();
  /** Entities per token number (grown as tokens are interned). */
  let tokenEntities: Int32Array = new Int32Array(1024);
  /** Token numbers already counted for the current entity. */
  const entityTokens = new Set<number>();

  for (let ei = 0; ei < entities.length; ei++) {
    entityTokens.clear();
    const e = entities[ei];
    entityJson[ei] = JSON.stringify(e);
    const kindId = kinds.id(e.kind, () => e.kind);
    if (kindId > 255) throw new Error('more than 256 entity kinds');
    entityKind[ei] = kindId;
    entityListTypes[ei] = listTypeSets.id(JSON.stringify(e.list_types), () => new Set(e.list_types));
    const variant = variantOf(e.kind);
    /** Exact key → record number, among this entity's names. */
    const seen = new Map<string, number>();
    for (let ni = -1; ni < e.aliases.length; ni++) {
      const listed = ni < 0 ? e.name : e.aliases[ni].name;
      const weak = ni >= 0 && e.aliases[ni].strength === 'weak';
      // the name as listed, then its other forms (records of the same name: see listedNameForms)
      for (const name of [listed, ...listedNameForms(listed, variant)]) {
        const toks = nameTokens(name, variant, legalForms).slice(0, 31);
        if (!toks.length) continue;
        const key = exactKey(toks);
        const prev = seen.get(key);
        if (prev !== undefined) {
          if (recordWeak[prev] && !weak) recordWeak[prev] = 0;
          continue;
        }
        const ri = recordEntity.length;
        recordEntity.push(ei);
        recordAlias.push(ni);
        recordWeak.push(weak ? 1 : 0);
        for (const t of toks) {
          const id = tokens.id(t, () => t);
          tokenIds.push(id);
          if (entityTokens.has(id)) continue;
          entityTokens.add(id);
          tokenEntities = growInt32(tokenEntities, id + 1);
          tokenEntities[id]++;
        }
        tokenStart.push(tokenIds.length);
        seen.set(key, ri);
        keys.clear();
        for (const t of toks) tokenKeys(t, keys);
        for (const k of keys) postings.add(k, ri);
      }
    }
    for (let ii = 0; ii < e.identifiers.length; ii++) {
      const v = normalizeIdentifier(e.identifiers[ii].value);
      if (v.length < 4) continue;
      if (identifierLast.get(v) === ei) continue;
      identifierLast.set(v, ei);
      identifiers.add(v, identifierEntity.length);
      identifierEntity.push(ei);
      identifierIndex.push(ii);
    }
  }
  const postingCount = postings.pairs;
  const postingLists = postings.build();
  const index = new ScreeningIndex({
    legalForms,
    stats: {
      entities: entities.length,
      records: recordEntity.length,
      keys: postingLists.size,
      postings: postingCount,
      buildMs: 0,
    },
    postings: postingLists,
    identifiers: identifiers.build(),
    identifierEntity: Int32Array.from(identifierEntity),
    identifierIndex: Int32Array.from(identifierIndex),
    recordEntity: Int32Array.from(recordEntity),
    recordAlias: Int32Array.from(recordAlias),
    recordWeak: Uint8Array.from(recordWeak),
    tokenStart: Int32Array.from(tokenStart),
    tokenIds: Int32Array.from(tokenIds),
    tokens: tokens.table,
    tokenEntities: Int32Array.from(tokenEntities.subarray(0, tokens.table.length)),
    entityKind,
    kinds: kinds.table,
    entityListTypes,
    listTypeSets: listTypeSets.table,
    entityJson,
  });
  index.stats.buildMs = performance.now() - started;
  return index;
}

/** The index as plain data to post to another thread, and the buffers to transfer (not copy) with it. */
export function indexTransfer(index: ScreeningIndex): { data: IndexTransfer; transfer: ArrayBuffer[] } {
  const data = index.toTransfer();
  const buffers = new Set<ArrayBuffer>();
  const add = (a: ArrayBufferView) => {
    if (a.buffer instanceof ArrayBuffer) buffers.add(a.buffer);
  };
  for (const value of Object.values(data)) if (ArrayBuffer.isView(value)) add(value);
  for (const parts of [data.postings, data.identifiers])
    for (const value of Object.values(parts)) if (ArrayBuffer.isView(value)) add(value);
  return { data, transfer: [...buffers] };
}

/** The index posted by `indexTransfer` (its arrays and strings are used as they arrive: nothing is rebuilt). */
export function indexFromTransfer(data: IndexTransfer): ScreeningIndex {
  return new ScreeningIndex(
    {
      ...data,
      legalForms: data.legalForms ?? DEFAULT_LEGAL_FORMS,
      postings: new KeyedLists(data.postings),
      identifiers: new KeyedLists(data.identifiers),
    },
    { slots: data.exactSlots, hashes: data.exactHashes },
  );
}
