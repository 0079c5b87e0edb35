import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A statement that must commit with the request's change: the audit entry of a /v1 write. The
 * database layer (src/db/commit-companion.ts) runs it in the first read-write transaction the
 * request commits, just before the commit, so the change and its record commit together or not at
 * all, without a commit of their own.
 */
export interface CommitCompanion {
  /**
   * The statement for the transaction about to commit, as SQL text with its values written as
   * literals (so that it can travel with the COMMIT), or null when it is not (or no longer) due.
   */
  take(): string | null;
  /** That transaction committed (true) or failed (false: the statement is due again). */
  settle(committed: boolean): void;
}

/**
 * What the request being served is known by, for code that records who did something: the API key
 * of a /v1 request, the console user whose session made it, or the contact (an individual) whose client portal link a /portal request carries.
 */
type RequestScope = ({ apiKeyId: string } | { userId: string } | { contactIndividualId: string }) & {
  /** Added by the audit log and by Idempotency-Key on a write (see CommitCompanion). */
  commitCompanions?: CommitCompanion[];
  /** The id of the resource the request creates, once known (see noteCreatedResource). */
  createdResourceId?: string;
  /** The first case the request recorded an event about (see noteEventCase). */
  eventCaseId?: string;
  /** Attached by the audit log to a write's scope (see auditNotes). */
  auditNotes?: AuditNotes;
};

/** What a write's use case read before changing it, for the request's audit entry. */
export interface AuditNotes {
  /** The values a decision replaced (`role`, `suspended`, a check's or case's `status`, `assignee_id`). */
  before: Record<string, unknown>;
}

const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `fn` (and everything it awaits or schedules) as part of the given request. */
export function runInRequestScope<T>(scope: RequestScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The API key behind the current request, or null outside a request (jobs, workers, CLI). */
export function currentApiKeyId(): string | null {
  const scope = storage.getStore();
  return scope && 'apiKeyId' in scope ? scope.apiKeyId : null;
}

/** The console user behind the current /v1 request (a session, not a key), or null. */
export function currentUserId(): string | null {
  const scope = storage.getStore();
  return scope && 'userId' in scope ? scope.userId : null;
}

/** The contact behind the current client portal request, or null (API calls, jobs, CLI). */
export function currentContactId(): string | null {
  const scope = storage.getStore();
  return scope && 'contactIndividualId' in scope ? scope.contactIndividualId : null;
}

/**
 * Tells the request's audit entry which resource it creates before its transaction commits, so the
 * entry written in that transaction names it (else it is corrected after, at the cost of a statement).
 * The first note wins: a use case creating a case creates its checks with the same use cases that
 * note a check's id when called on their own. Outside a request, a no-op.
 */
export function noteCreatedResource(id: string): void {
  const scope = storage.getStore();
  if (scope && scope.createdResourceId === undefined) scope.createdResourceId = id;
}

/**
 * Notes the case an event recorded while serving the request is about (recordEvents): a stored
 * Idempotency-Key answer is then known to be about that case. The first case wins. Outside a
 * request, a no-op.
 */
export function noteEventCase(caseId: string): void {
  const scope = storage.getStore();
  if (scope && scope.eventCaseId === undefined) scope.eventCaseId = caseId;
}

/** The case noted by noteEventCase in the current request, or null. */
export function currentEventCaseId(): string | null {
  return storage.getStore()?.eventCaseId ?? null;
}

/** The created resource's id noted by the current request, or null. */
export function currentCreatedResourceId(): string | null {
  return storage.getStore()?.createdResourceId ?? null;
}

/**
 * The current request's audit notes, attached on first call (the audit log calls it for each write it
 * records, and keeps them for the entry); null outside a request.
 */
export function auditNotes(): AuditNotes | null {
  const scope = storage.getStore();
  if (!scope) return null;
  scope.auditNotes ??= { before: {} };
  return scope.auditNotes;
}

/**
 * Tells the request's audit entry what the values a decision changes were, as read under the lock
 * in the write's own transaction (no read of its own, nothing to get out of step with the change).
 * The first note of a field wins: the use case the route calls reads its resource before anything it
 * sets off. A no-op outside a write the audit log records.
 */
export function noteAuditBefore(values: Record<string, unknown>): void {
  const notes = storage.getStore()?.auditNotes;
  if (!notes) return;
  for (const [field, value] of Object.entries(values)) {
    if (value !== undefined && !(field in notes.before)) notes.before[field] = value;
  }
}

/** Attaches a statement that must commit with the current request's change (see CommitCompanion). */
export function addCommitCompanion(companion: CommitCompanion): void {
  const scope = storage.getStore();
  if (!scope) return;
  if (scope.commitCompanions) scope.commitCompanions.push(companion);
  else scope.commitCompanions = [companion];
}

/** The current request's commit companions, or null (reads, jobs, CLI). */
export function currentCommitCompanions(): readonly CommitCompanion[] | null {
  return storage.getStore()?.commitCompanions ?? null;
}
