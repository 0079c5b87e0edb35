import { Type } from 'typebox';
import { SignatureOut } from '../checks/types/electronic_signature/schemas.ts';
import { DateTime, Nullable, Uuid } from '../http/common-schemas.ts';
import { RetryReasonSchema } from './retry-reasons.ts';

// Schemas of the client portal's own API (/portal/api). They validate requests and shape responses
// like every route's, but the routes are hidden from /v1/openapi.json: the API serves the portal's
// page only and is documented in docs/client-portal.md.

const ErrorRef = Type.Ref('ErrorBody');

/** Error responses of portal routes: 401 (link missing, unknown, expired or revoked) and 403 (portal offline) apply to all. */
export function portalErrors(...codes: number[]) {
  const out: Record<number, typeof ErrorRef> = {};
  for (const code of [...codes, 401, 403, 429]) out[code] = ErrorRef;
  return out;
}

export const ActionState = Type.Union([
  Type.Literal('todo'),
  Type.Literal('submitted'),
  Type.Literal('approved'),
  Type.Literal('retry'),
]);

export const PendingFileOut = Type.Object({ id: Uuid, name: Type.String(), size: Type.Integer() });

export const SlotOut = Type.Object({
  key: Type.String(),
  required: Type.Boolean(),
  min_files: Type.Integer(),
  max_files: Type.Integer(),
  accept: Type.String(),
  capture: Nullable(Type.Union([Type.Literal('user'), Type.Literal('environment')])),
  files: Type.Array(PendingFileOut),
});

export const ActionOut = Type.Object({
  id: Uuid,
  type: Type.String(),
  state: ActionState,
  entity: Type.Object({
    kind: Type.Union([Type.Literal('company'), Type.Literal('individual')]),
    name: Type.String(),
  }),
  label: Nullable(Type.String()),
  description: Nullable(Type.String()),
  slots: Type.Array(SlotOut),
  can_submit: Type.Boolean(),
  /** `submitted` only: what was sent is being verified now (the check is `processing`); the page waits for the result. */
  checking: Type.Boolean(),
  /** `retry` only: why it came back, when that can be said (src/portal/retry-reasons.ts); else null. */
  retry_reason: Nullable(RetryReasonSchema),
  /** electronic_signature actions only (docs/electronic-signature.md). */
  signature: Type.Optional(SignatureOut),
});

export const SessionOut = Type.Object({
  portal: Type.Object({
    name: Type.String(),
    default_language: Type.String(),
    accent_color: Type.String(),
    logo_url: Nullable(Type.String()),
  }),
  case: Type.Object({ name: Type.String(), company_name: Nullable(Type.String()) }),
  contact: Type.Object({ first_name: Type.String(), last_name: Type.String() }),
  scope: Type.Union([Type.Literal('case'), Type.Literal('check')]),
  expires_at: DateTime,
  redirect_url: Nullable(Type.String()),
  actions: Type.Array(ActionOut),
  all_submitted: Type.Boolean(),
  wait_step: Nullable(Type.Object({ key: Type.String(), title: Type.String() })),
});

export const ActionParams = Type.Object({ id: Uuid });
export const PendingFileParams = Type.Object({ id: Uuid, file_id: Uuid });
export const UploadQuery = Type.Object({
  slot: Type.String({
    minLength: 1,
    maxLength: 50,
    description: 'The slot the file goes to (`files`, `front`, ...)',
  }),
});
