import { insertLiterals } from '../db/insert-values.ts';
import { type CommitCompanion, currentCreatedResourceId } from '../shared/request-scope.ts';
import type { AuditOutcome } from './outcome.ts';
import { type AuditEntry, auditRow } from './record.ts';

/**
 * The audit entry of one write request, offered to the request's transactions as their commit
 * companion: the first read-write one to commit writes it, predicting the request's success (the
 * route's success status, the created id the use case noted). Once the answer is known, `close()`
 * stops any later transaction from writing it and says what was written, if anything.
 */
export class TransactionalEntry implements CommitCompanion {
  readonly id: string;
  /** What the entry says whatever the outcome (who, what, from where). */
  readonly request: AuditEntry;
  readonly #predict: (createdId: string | null) => AuditOutcome;
  #state: 'due' | 'running' | 'written' | 'closed' = 'due';
  #written: AuditOutcome | null = null;
  #settled: Promise<void> | null = null;
  #resolveSettled: (() => void) | null = null;

  constructor(id: string, request: AuditEntry, predict: (createdId: string | null) => AuditOutcome) {
    this.id = id;
    this.request = request;
    this.#predict = predict;
  }

  take(): string | null {
    if (this.#state !== 'due') return null;
    this.#state = 'running';
    this.#settled = new Promise((resolve) => {
      this.#resolveSettled = resolve;
    });
    this.#written = this.#predict(currentCreatedResourceId());
    // every write pays for this statement: built without Kysely's builder, and with its values as
    // literals, so that on PostgreSQL it travels with the COMMIT (src/db/commit-companion.ts)
    return insertLiterals('audit_log', [auditRow(this.id, { ...this.request, ...this.#written })]);
  }

  settle(committed: boolean): void {
    if (this.#state === 'running') this.#state = committed ? 'written' : 'due';
    if (!committed) this.#written = null;
    this.#resolveSettled?.();
  }

  /** The outcome it was committed with, when it was and nothing else is pending; else null. */
  writtenOutcome(): AuditOutcome | null {
    return this.#state === 'written' ? this.#written : null;
  }

  /**
   * No transaction writes it from now on. Resolves to the outcome it was committed with, or null
   * when it was not (the caller writes it then), after waiting for a commit in flight.
   */
  async close(): Promise<AuditOutcome | null> {
    if (this.#state === 'running') await this.#settled;
    const written = this.#state === 'written' ? this.#written : null;
    this.#state = 'closed';
    return written;
  }
}
