/** The portal's JSON API (docs/client-portal.md, "The portal's API"), authorised by the link's token. */
import { request } from '../shared/http.ts';

export interface PortalFile {
  id: string;
  name: string;
  size: number;
}

export interface Slot {
  key: string;
  required: boolean;
  min_files: number;
  max_files: number;
  accept: string;
  capture: 'user' | 'environment' | null;
  files: PortalFile[];
}

export type ActionState = 'todo' | 'submitted' | 'approved' | 'retry';

/** Why a step came back (src/portal/retry-reasons.ts); null when it cannot be said. */
export type RetryReason =
  | 'unreadable'
  | 'expired'
  | 'too_old'
  | 'wrong_document'
  | 'details_mismatch'
  | 'face_mismatch'
  | 'selfie_unusable'
  | 'document_and_selfie_unusable';

export interface Action {
  id: string;
  type: string;
  state: ActionState;
  entity: { kind: 'company' | 'individual'; name: string };
  label: string | null;
  description: string | null;
  slots: Slot[];
  can_submit: boolean;
  /** Submitted and being verified now: the page reads the session again until it is not. */
  checking: boolean;
  retry_reason: RetryReason | null;
  /** electronic_signature actions only (docs/electronic-signature.md, "The portal's signing API"). */
  signature?: SignatureState | null;
}

/**
 * True while a signature asks something of the contact (to open the document, or to sign it); not
 * once it is signed, declined or ended. The step's form, its wording and the checklist's count follow it.
 */
export function signatureAsks(sig: Pick<SignatureState, 'status'> | null | undefined): boolean {
  return sig?.status === 'not_started' || sig?.status === 'ongoing';
}

/** Where a signature request stands (docs/electronic-signature.md, "The portal's signing API"). */
export interface SignatureState {
  /** `ended`: the check was decided without the signer (an operator's review, an expiry). */
  status: 'not_started' | 'ongoing' | 'signed' | 'declined' | 'ended';
  document_name: string;
  document_sha256: string | null;
  document_pages: number | null;
  document_url: string | null;
  document_html_url: string | null;
  signed_document_url: string | null;
  signer: { name: string; email_hint: string | null };
  code: {
    sent_at: string | null;
    expires_at: string | null;
    attempts_left: number;
    resend_available_at: string | null;
  };
  signed_at: string | null;
  declined_at: string | null;
  decline_reason: string | null;
}

/** The frozen HTML, its `<style>` texts (`css`) and `style` attributes (`inline`, by `data-vc-style`) apart. */
export interface DocumentParts {
  markup: string;
  css: string;
  inline: string[];
}

export interface Session {
  portal: { name: string; default_language: string; accent_color: string | null; logo_url: string | null };
  case: { name: string; company_name: string | null };
  contact: { first_name: string; last_name: string };
  scope: 'case' | 'check';
  expires_at: string;
  redirect_url: string | null;
  actions: Action[];
  /** Every action sent (being checked) or approved: no step to do or send again, no signature closed or declined. */
  all_submitted: boolean;
  wait_step: { key: string; title: string } | null;
}

const BASE = '/portal/api';

export class PortalApi {
  readonly token: string;
  constructor(token: string) {
    this.token = token;
  }

  session(): Promise<Session> {
    return request<Session>(`${BASE}/session`, { token: this.token });
  }

  /** The logo as an object URL (the logo route wants the token, which an <img> cannot send). */
  async logo(url: string): Promise<string> {
    const blob = await request<Blob>(url, { token: this.token, responseType: 'blob' });
    return URL.createObjectURL(blob);
  }

  upload(actionId: string, slot: string, file: Blob, name: string, onProgress: (f: number) => void) {
    const form = new FormData();
    form.append('file', file, name);
    const url = `${BASE}/actions/${encodeURIComponent(actionId)}/files?slot=${encodeURIComponent(slot)}`;
    return request<Action>(url, {
      method: 'POST',
      token: this.token,
      body: form,
      onUploadProgress: onProgress,
    });
  }

  removeFile(actionId: string, fileId: string): Promise<Action> {
    const url = `${BASE}/actions/${encodeURIComponent(actionId)}/files/${encodeURIComponent(fileId)}`;
    return request<Action>(url, { method: 'DELETE', token: this.token });
  }

  /** The signing step's calls, under /portal/api/actions/{id}/signature/. */
  signature(actionId: string, step: string, body?: unknown): Promise<Action> {
    return request<Action>(`${BASE}/actions/${encodeURIComponent(actionId)}/signature/${step}`, {
      method: 'POST',
      token: this.token,
      ...(body === undefined ? {} : { body: JSON.stringify(body), contentType: 'application/json' }),
    });
  }

  /** The frozen document: its HTML (shown in a sandboxed frame) or its PDF (downloaded). */
  signatureDocument(actionId: string, format: 'html' | 'pdf'): Promise<Blob> {
    const file = format === 'html' ? 'document.html' : 'document';
    return request<Blob>(`${BASE}/actions/${encodeURIComponent(actionId)}/signature/${file}`, {
      token: this.token,
      responseType: 'blob',
    });
  }

  /**
   * The frozen HTML with its styles apart (`document-parts`): the page's CSP allows no inline style,
   * and the browser reports every one its HTML parser meets, even in a document never shown.
   */
  signatureDocumentParts(actionId: string): Promise<DocumentParts> {
    return request<DocumentParts>(
      `${BASE}/actions/${encodeURIComponent(actionId)}/signature/document-parts`,
      { token: this.token },
    );
  }

  /** The signed PDF, once signed. */
  signedDocument(actionId: string): Promise<Blob> {
    return request<Blob>(`${BASE}/actions/${encodeURIComponent(actionId)}/signature/signed-document`, {
      token: this.token,
      responseType: 'blob',
    });
  }

  submit(actionId: string): Promise<Action> {
    return request<Action>(`${BASE}/actions/${encodeURIComponent(actionId)}/submit`, {
      method: 'POST',
      token: this.token,
    });
  }
}
