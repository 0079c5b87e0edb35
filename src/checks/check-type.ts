import type { TObject, TSchema } from 'typebox';
import type { AppContext } from '../app-context.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/connect.ts';
import type { CheckRow, CompanyRow, IndividualRow } from '../db/schema.ts';
import type { GeneratedFile } from '../files/generated-file.ts';
import type { PortalActionDefinition } from '../portal/portal-action.ts';
import type { Settings } from '../settings/defaults.ts';

export type CheckStatus = 'in_progress' | 'processing' | 'need_review' | 'approved' | 'rejected' | 'expired';

/**
 * One row of a check type's transition table. The table is data: the engine refuses any state
 * change that no row allows; `condition` and `also` say in words what the type's code decides.
 */
export interface Transition {
  from: CheckStatus | null;
  trigger: string;
  to: CheckStatus;
  condition?: string;
  also?: string;
}

export type CheckTarget = { kind: 'individual'; row: IndividualRow } | { kind: 'company'; row: CompanyRow };

/** What a type decides at creation. */
export interface CreatePlan {
  status: CheckStatus;
  /** The trigger of the transition taken from `null` (default `create`). */
  trigger?: string;
  subtype?: string | null;
  /** The check's is_internal when the type decides it per check (document: its document type's). */
  isInternal?: boolean;
  data: Record<string, unknown>;
  /**
   * For a check decided at creation (a synchronous provider answer): its data as it started, before
   * that answer, which its Check.Started event shows (with status `processing`). Default: `data`
   * with `result` null and a blank `review` (create-check.ts).
   */
  startedData?: Record<string, unknown>;
  internal?: Record<string, unknown>;
  expiresAt?: Date | null;
  /** Asynchronous provider work to enqueue in the creating transaction. */
  process?: { startAfter?: Date } | null;
}

/** A state change decided by the type (provider result, action...). */
export interface Outcome {
  trigger: string;
  status: CheckStatus;
  data: Record<string, unknown>;
  internal?: Record<string, unknown>;
  expiresAt?: Date | null;
  process?: { startAfter?: Date } | null;
  /**
   * Files the type produced for this outcome (id_verification's PDF report), already stored:
   * recorded in the applying transaction, dropped from storage when the outcome is not applied.
   */
  generatedFiles?: GeneratedFile[];
}

export interface CreateInput {
  ctx: AppContext;
  trx: Db;
  workspaceId: string;
  checkId: string;
  target: CheckTarget;
  // biome-ignore lint/suspicious/noExplicitAny: each type validates its own body through its schema
  body: any;
  /** The workspace settings for this check type (`settings.checks[type]`), unresolved. */
  workspaceTypeSettings: Record<string, unknown>;
  /** All the workspace settings, as the engine read them for this creation (no second read). */
  workspaceSettings: Settings;
}

export interface ProcessInput {
  ctx: AppContext;
  check: CheckRow;
  target: CheckTarget;
  /**
   * No retry follows this run of the job: a type that throws to be retried later (a passing cause)
   * must decide now instead, or the check would stay processing.
   */
  finalAttempt: boolean;
}

export interface CheckTypeDefinition {
  type: string;
  /** How the API reference names and explains the type (its operations' summaries and descriptions). */
  docs: { title: string; about: string };
  /** Other path spellings accepted for this type (e.g. `fraud-database`). */
  pathAliases?: readonly string[];
  targets: readonly ('individual' | 'company')[];
  isInternal: boolean;
  /**
   * Read-only over the API (company_monitoring): no create or review endpoint and not usable in
   * templates; its own module creates and moves it through the engine.
   */
  readOnly?: boolean;
  /** Create body (includes the target id field). */
  createBody: TObject;
  /** The `data` object of the full check, for the OpenAPI document. */
  dataSchema: TSchema;
  transitions: readonly Transition[];
  /**
   * The case's contact supplies this check's data (files, a capture): an `in_progress` one waits
   * for them, and a rejected one can take new data (case flags `for_first_collect`,
   * `for_recollection`).
   */
  collectsData?: boolean;
  /**
   * A rejection ends the check for good (a declined signature: a new check is needed): a rejected
   * one does not count as waiting for new data (case flag `for_recollection`).
   */
  finalRejection?: boolean;
  /** Types whose stuck `processing` checks can be pushed to review. */
  forceReview?: boolean;
  /**
   * The subtype a check of these settings gets (document: one per document type). A template
   * creates one check per type, subtype and entity.
   */
  subtypeOf?(settings: Record<string, unknown>): string;
  /**
   * Checks of a template's settings that need the workspace's data (a document type must exist):
   * run when the template is written, so a bad template is refused then rather than at every case
   * it is applied to. Returns the problem in words, or null. `kinds`: the entity kinds the
   * template's targets select.
   */
  validateTemplateSettings?(
    db: Db,
    workspaceId: string,
    settings: Record<string, unknown>,
    kinds: readonly ('company' | 'individual')[],
    /** The problem, naming the setting (`document_type_key`) when it is about one. */
  ): Promise<string | { setting: string; message: string } | null>;
  create(input: CreateInput): Promise<CreatePlan>;
  /**
   * Runs in the creating transaction right after the row is written, before its events: work that
   * needs the row to exist (id_verification's portal link references the check). Returns the row
   * as it then is (the events carry it).
   */
  afterCreate?(input: { ctx: AppContext; trx: Db; check: CheckRow }): Promise<CheckRow>;
  /**
   * The provider work may take minutes (OCR of scans): its jobs run on their own queue, a few at a
   * time, and are not given up as stalled after the usual minute. A function when the configuration
   * decides (id_document reads MRZs by OCR once the sandbox file controls are off).
   */
  slowProcess?: boolean | ((config: Config) => boolean);
  /** Provider work run by the job queue while the check is `processing`. */
  process?(input: ProcessInput): Promise<Outcome | null>;
  /** Extra rules before a manual review (e.g. aml hits must be reviewed first). */
  beforeReview?(check: CheckRow): void;
  /**
   * The type's own effects of a manual review, in its transaction (electronic_signature ends an open
   * signature request): returns the data the reviewed check keeps.
   */
  onReview?(input: {
    trx: Db;
    check: CheckRow;
    data: Record<string, unknown>;
    decision: 'approved' | 'rejected';
    now: Date;
  }): Promise<Record<string, unknown>>;
  /** How the client portal shows this type's checks to the case's contact (src/portal/portal-action.ts). */
  portal?: PortalActionDefinition;
  /** Type-specific routes (e.g. id_document add_files), mounted under /v1. */
  routes?(app: import('../app-context.ts').App, ctx: AppContext): void;
}
