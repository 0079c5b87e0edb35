import { Type } from 'typebox';
import { PORTAL_LANGUAGES } from '../../../client-portals/schemas.ts';
import { DateTime, NonBlank, Nullable, Uuid } from '../../../http/common-schemas.ts';
import { NullableNestedUser } from '../../../users/nested-user.ts';

/** The spec's provider name for electronic signatures: ours signs itself (docs/electronic-signature.md). */
export const SIGNATURE_VENDOR = 'signature_provider_1';

/** A document template key (the document templates' own rule). */
const TemplateKey = Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9_]{1,64}$' });

export const ElectronicSignatureCreateBody = Type.Object({
  individual_id: Uuid,
  settings: Type.Object({
    document_template_key: TemplateKey,
    automatic_approval: Type.Optional(Type.Boolean()),
  }),
});

export const ElectronicSignatureData = Type.Object({
  result: Nullable(Type.Enum(['approved', 'rejected', 'error'])),
  settings: Type.Object({
    document_template_key: Type.String(),
    automatic_approval: Type.Boolean(),
  }),
  vendor: Type.Object({
    name: Type.Enum([SIGNATURE_VENDOR]),
    status: Nullable(
      Type.String({ description: 'pending (not started), ongoing (started), done (signed) or declined' }),
    ),
    signature_request_ref: Nullable(Type.String()),
    signer_ref: Nullable(Type.String()),
    document_ref: Nullable(Type.String({ description: 'sha256:<hex> of the frozen document' })),
    signature_link: Nullable(
      Type.String({
        description: 'The client portal page of this signature (null until the request started)',
      }),
    ),
    signature_link_expiration_date: Nullable(DateTime),
    started_at: Nullable(DateTime),
    ended_at: Nullable(DateTime),
    decline_reason: Type.Optional(
      Nullable(
        Type.String({
          description:
            "Why the signer declined, in their words (set when they decline; kept when an operator's review overrides the decision)",
        }),
      ),
    ),
  }),
  information: Type.Object({
    file_id: Nullable(Type.String({ description: 'The document as frozen when the request started' })),
    signed_file_id: Nullable(Type.String({ description: 'The signed PDF' })),
    audit_trail_id: Nullable(Type.String({ description: 'The audit trail PDF' })),
  }),
  review: Type.Object({
    comment: Nullable(Type.String()),
    reviewed_at: Nullable(Type.String()),
    reviewer_type: Nullable(Type.Enum(['user', 'system', 'api'])),
    user: NullableNestedUser,
  }),
});

// --- the portal's signing API (hidden from /v1/openapi.json; docs/electronic-signature.md) ---

export const SignatureOut = Type.Object({
  status: Type.Enum(['not_started', 'ongoing', 'signed', 'declined', 'ended']),
  document_name: Type.String(),
  document_sha256: Nullable(Type.String()),
  document_pages: Nullable(Type.Integer()),
  document_url: Nullable(Type.String()),
  document_html_url: Nullable(Type.String()),
  signed_document_url: Nullable(Type.String()),
  signer: Type.Object({ name: Type.String(), email_hint: Nullable(Type.String()) }),
  code: Type.Object({
    sent_at: Nullable(DateTime),
    expires_at: Nullable(DateTime),
    attempts_left: Type.Integer(),
    resend_available_at: Nullable(DateTime),
  }),
  signed_at: Nullable(DateTime),
  declined_at: Nullable(DateTime),
  decline_reason: Nullable(Type.String()),
});

/** Optional: without a body the mail is in the portal's default language. */
export const SendCodeBody = Type.Object({
  language: Type.Optional(
    Type.Enum(PORTAL_LANGUAGES, {
      description:
        "The page's language: the code's mail is written in it (every portal language has its mail); without it, the portal's default language",
    }),
  ),
});

/** `GET …/signature/document-parts`: the frozen HTML with its styles apart (document-parts.ts). */
export const DocumentPartsOut = Type.Object({
  markup: Type.String({ description: 'The HTML without <style> elements; style="" is data-vc-style="<n>"' }),
  css: Type.String({ description: 'The text of the <style> elements, in order' }),
  inline: Type.Array(Type.String(), { description: 'The style attributes, by data-vc-style number' }),
});

export const SignBody = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 20, description: 'The 6-digit code sent by e-mail' }),
  agreed: Type.Boolean({ description: 'Must be true: the signer read and agrees to the document' }),
  typed_name: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: "The signer's name as on record (case, accents, spacing and order are forgiven)",
    }),
  ),
  drawn_signature_png_base64: Type.Optional(
    Type.String({ minLength: 1, maxLength: 1_400_000, description: 'A PNG image, base64 (at most 1 MB)' }),
  ),
  language: Type.Optional(
    Type.Enum(PORTAL_LANGUAGES, {
      description:
        "The page's language: the signed document's signature block and its reason are written in it (Japanese and Korean in English); without it, the portal's default language",
    }),
  ),
});

export const DeclineBody = Type.Object({
  reason: NonBlank({ maxLength: 1000 }),
});
