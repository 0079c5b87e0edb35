import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { AfterCaseCreated } from './cases/create-case.ts';
import type { CheckEnvelopeLoader } from './cases/get-case.ts';
import type { CheckEnvelopeOut } from './checks/envelope-schema.ts';
import type { Config } from './config.ts';
import type { Db } from './db/connect.ts';
import type { CaseRow } from './db/schema.ts';
import type { KeyResolver } from './http/auth.ts';
import type { JobQueue } from './jobs/queue.ts';

/** What made a case's entity a possible target of its template (see `afterCaseEntitiesChanged`). */
export type EntityChange =
  /** `created`: the entity is the one this request creates (a refusal names the request's fields). */
  { added: string; created?: boolean } | { before: object & { id: string }; after: object & { id: string } };

/** What every route module receives: configuration and shared services. No request state. */
export interface AppContext {
  config: Config;
  db: Db;
  dbKind: 'pglite' | 'postgres';
  keys: KeyResolver;
  /** File bytes (src/files/storage.ts); created from `config` on first use when absent. */
  storage?: import('./files/storage.ts').FileStorage;
  /** Sanctions screening (src/screening/service); set at start-up by the screening module. */
  screening?: import('./screening/service/screening-service.ts').ScreeningService;
  /** The job queue; set at start-up by installModules. */
  jobs: JobQueue;
  /** Stops background work started by modules (workers, schedules); each step on the trace, if given. */
  stop?: (trace?: import('./ops/shutdown-trace.ts').ShutdownTrace) => Promise<void>;
  /** Extension points filled by later modules (checks), so the case module does not import them. */
  hooks: {
    afterCaseCreated?: AfterCaseCreated;
    loadCheckEnvelopes?: CheckEnvelopeLoader;
    /** Check envelopes of one company or individual. */
    loadEntityChecks?: (db: Db, entityId: string) => Promise<CheckEnvelopeOut[]>;
    /**
     * Runs after an entity was added to a case or gained a role, in the same transaction: the case's
     * template creates the checks that entity is now a target of (and only that entity: a template
     * check deleted on purpose elsewhere stays deleted). True when it created any. `added` names a
     * new company or individual, or a new relation's source; after an update `before` and `after`
     * hold the row, and nothing runs unless a column that decides a template's targets (a flag,
     * roles, relevance) changed.
     */
    afterCaseEntitiesChanged?: (
      trx: Db,
      workspaceId: string,
      caseId: string,
      change: EntityChange,
    ) => Promise<boolean>;
    /**
     * Sets (or with null detaches) a case's template in the caller's transaction, emitting
     * `Case.TemplateUpdated`, and applies it to the case's current entities.
     */
    changeCaseTemplate?: (
      trx: Db,
      workspaceId: string,
      caseRow: CaseRow,
      ref: { template_key?: string | null; template_id?: string | null },
    ) => Promise<void>;
    /**
     * Runs when the checks a case counts changed without a check changing (a company or individual
     * deleted with its checks, or marked relevant or not), in the same transaction: the case's
     * flags, `reviewer_has_actions` and `contact_has_actions` follow, as after a check change.
     */
    afterCaseCountedChecksChanged?: (trx: Db, workspaceId: string, caseId: string) => Promise<void>;
    /**
     * Runs before a company or individual is deleted with its checks, in the same transaction:
     * records `Check.Deleted` for each of them, as deleting a check by itself does.
     */
    beforeEntityDeleted?: (
      trx: Db,
      workspaceId: string,
      entity: { kind: 'company' | 'individual'; id: string },
    ) => Promise<void>;
    /** Runs after a case's checks changed, in the same transaction (template auto-approval). */
    afterCaseChecksChanged?: (trx: Db, caseRow: CaseRow) => Promise<void>;
    /**
     * Runs when a draft case is opened (PATCH status `open`), in the same transaction: template
     * auto-approval applies to checks that were all approved while the case was a draft.
     */
    afterCaseOpened?: (trx: Db, caseRow: CaseRow) => Promise<void>;
  };
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;
