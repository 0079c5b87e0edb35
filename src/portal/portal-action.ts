import type { AppContext } from '../app-context.ts';
import type { Db } from '../db/connect.ts';
import type { CheckRow } from '../db/schema.ts';
import type { RetryReason } from './retry-reasons.ts';

// The hook a check type implements to appear in the client portal as an action the contact
// completes (document, id_document, id_verification; electronic_signature later). The portal's API
// (src/portal/) knows no check type: it asks the type which checks a contact sees, which slots to
// fill, and hands the pending files over on submit.

export interface PortalSlot {
  key: string;
  required: boolean;
  min_files: number;
  max_files: number;
  accept: string;
  capture: 'user' | 'environment' | null;
}

export interface PendingPortalFile {
  id: string;
  slot: string;
  upload_ref: string;
  file_name: string;
  size: number;
}

export interface PortalActionDefinition {
  /**
   * Whom a case-wide link shows the check to (a check's own link always shows it): every business
   * contact (they gather the company's papers and other people's as well), or only the person the
   * check is about (no one signs or shows their face for someone else). The case's
   * contact_has_actions counts a waiting check the same way.
   */
  audience: 'every_contact' | 'own_checks';
  /** The slots to fill now (id_document: back only when the document type has one, etc.). */
  slots(check: CheckRow): PortalSlot[];
  /** Label and description shown with the action. */
  describe?(db: Db, check: CheckRow): Promise<{ label: string | null; description: string | null }>;
  /** The contact submits: move the check through the engine in this transaction. */
  submit(input: {
    ctx: AppContext;
    trx: Db;
    workspaceId: string;
    check: CheckRow;
    files: PendingPortalFile[];
    actor: { type: 'contact'; individualId: string };
    /** The address of the contact's device as the service sees it (VERICASE_TRUST_PROXY applies). */
    ip: string;
  }): Promise<void>;
  /** Why a step to send again came back, when the type can say it to the contact (src/portal/retry-reasons.ts). */
  retryReason?(check: CheckRow): RetryReason | null;
  /** Fields this type adds to its Action (electronic_signature's `signature` block). */
  extra?(db: Db, check: CheckRow): Promise<Record<string, unknown>>;
  /**
   * The 401 for a link of this one check (not a case-wide link) past its `expires_at`, when its page
   * can say more than "expired" (a signing link: a visit through the invitation issues a new one).
   * Said only to whoever holds the token, and it names the kind of link, nothing of the check.
   */
  expiredLink?: { code: string; message: string };
}
