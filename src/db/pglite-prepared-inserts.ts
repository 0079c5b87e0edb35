/**
 * Named prepared statements for the embedded database's hot inserts. PostgreSQL plans every
 * unnamed statement anew; for a case create on PGlite that planning is a large share of the
 * database's work (the graph's insert: 0.36 ms of planning for 1.4 ms of execution, `EXPLAIN
 * ANALYZE` in wasm; docs/performance.md, "Creating a case"). A statement whose text starts with
 * `PREPARE_MARK` is parsed once under a name and afterwards only bound and executed: after
 * PostgreSQL's first five executions it runs its generic plan.
 *
 * Opt-in, statement by statement: a generic plan is not always the custom plan's equal. Reads keep a
 * plan made for their parameters (docs/list-plans.md), and even an insert can depend on a
 * parameter's value: `on conflict (...) where "is_default" = $5` finds its partial unique index
 * only when the value is known (a generic plan fails with "no unique or exclusion constraint
 * matching"). The marked statements are inserts of literal rows whose parameters are only values:
 * the case graph and the events. Only the embedded database: it has one session owned by one
 * process, whose migrations run before any statement is prepared (on PostgreSQL a prepared
 * `returning *` fails while another process migrates: "Named prepared statements" in
 * docs/performance.md); there the mark is a comment like any other.
 */

/** Asks the embedded database to prepare the statement (a comment to PostgreSQL). */
export const PREPARE_MARK = '/* prepared */ ';

/** How many statements the session keeps prepared (the least recently used is closed first). */
const MAX_PREPARED = 64;

export interface PreparedUse {
  /** The statement's name ('' for an unnamed statement). */
  name: string;
  /** Whether its Parse message must be sent (first use). */
  parse: boolean;
  /** Statements to close first, in the same buffer (evicted ones, or ones an error left unknown). */
  close: string[];
}

/** The prepared statements of one session (one PGlite instance). */
export class PreparedInserts {
  readonly #byText = new Map<string, string>();
  #toClose: string[] = [];
  #next = 1;

  /** How `text` is sent now. */
  use(text: string): PreparedUse {
    // a fresh list every time: an eviction below adds to this statement's closes, not to the next one's
    const close = this.#toClose;
    this.#toClose = [];
    const known = this.#byText.get(text);
    if (known) {
      // most recently used last: the map's order is the eviction order
      this.#byText.delete(text);
      this.#byText.set(text, known);
      return { name: known, parse: false, close };
    }
    if (!text.startsWith(PREPARE_MARK)) return { name: '', parse: true, close };
    const name = `vc_ins_${this.#next++}`;
    if (this.#byText.size >= MAX_PREPARED) {
      const [oldestText, oldest] = this.#byText.entries().next().value as [string, string];
      this.#byText.delete(oldestText);
      close.push(oldest);
    }
    return { name, parse: true, close };
  }

  /** The statement ran: a newly parsed one is kept. */
  succeeded(text: string, use: PreparedUse): void {
    if (use.name && use.parse) this.#byText.set(text, use.name);
  }

  /**
   * The buffer failed somewhere: whether a new statement's Parse went through is unknown, and a
   * kept one may have been invalidated, so both are forgotten and closed with the next statement
   * (closing a statement that does not exist is not an error). The closes sent with this buffer
   * may not have run either: they are sent again.
   */
  failed(text: string, use: PreparedUse): void {
    this.#toClose.push(...use.close);
    if (!use.name) return;
    if (this.#byText.get(text) === use.name) this.#byText.delete(text);
    this.#toClose.push(use.name);
  }
}
