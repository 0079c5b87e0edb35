import { SIGNATURE_VENDOR } from './schemas.ts';

export type ElectronicSignatureSettings = {
  document_template_key: string;
  automatic_approval: boolean;
};

export const ELECTRONIC_SIGNATURE_DEFAULTS: ElectronicSignatureSettings = {
  document_template_key: '',
  automatic_approval: true,
};

/** The check's `internal`: the template as found at creation (its name titles the document). */
export interface ElectronicSignatureInternal {
  template_id: string;
  template_name: string;
}

/** data.vendor.status, the provider's word for where the request is. */
export type VendorStatus = 'pending' | 'ongoing' | 'done' | 'declined' | 'cancelled';

export const emptyReview = () => ({ comment: null, reviewed_at: null, reviewer_type: null, user: null });

/** The data of a new check: nothing is rendered or sent until the signer reaches the portal. */
export function initialData(settings: ElectronicSignatureSettings): Record<string, unknown> {
  return {
    result: null,
    settings,
    vendor: {
      name: SIGNATURE_VENDOR,
      status: 'pending' satisfies VendorStatus,
      signature_request_ref: null,
      signer_ref: null,
      document_ref: null,
      signature_link: null,
      signature_link_expiration_date: null,
      started_at: null,
      ended_at: null,
    },
    information: { file_id: null, signed_file_id: null, audit_trail_id: null },
    review: emptyReview(),
  };
}
