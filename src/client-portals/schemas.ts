import { Type } from 'typebox';
import { DateTime, NonBlank, Nullable, Uuid } from '../http/common-schemas.ts';

export const PORTAL_STATUSES = ['online', 'offline'] as const;
export const PORTAL_LANGUAGES = ['en', 'fr', 'it', 'de', 'es', 'nl', 'pt', 'pl', 'hu', 'ja', 'ko'] as const;
export const MAX_WAIT_STEPS = 20;

const WaitStep = Type.Object({
  key: Type.String({
    pattern: '^[A-Za-z0-9_-]{1,64}$',
    description: 'Identifies the step (letters, digits, `_`, `-`; unique within the portal)',
  }),
  title: NonBlank({ maxLength: 200, description: 'What the contact is told they wait for' }),
});

const AccentColor = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: 'Hex colour `#rrggbb`' });

export const ClientPortal = Type.Object({
  id: Uuid,
  name: Type.String(),
  status: Type.Enum(PORTAL_STATUSES, {
    description: 'offline: no link can be shared, open links stop working',
  }),
  default_language: Type.Enum(PORTAL_LANGUAGES, {
    description: "The page's language unless the browser asks for another it has",
  }),
  url: Type.String({ description: "The portal page's base URL (links add the contact's token to it)" }),
  accent_color: Nullable(AccentColor),
  logo_file_id: Nullable(Uuid),
  wait_steps: Type.Array(WaitStep, {
    description: 'Ordered points where the contact, having submitted everything, waits for you',
  }),
  is_default: Type.Boolean({
    description: "The workspace's default portal (used when a request names none)",
  }),
  updated_at: DateTime,
  created_at: DateTime,
});

export const ClientPortalUpdate = Type.Object({
  name: Type.Optional(NonBlank({ maxLength: 200 })),
  status: Type.Optional(Type.Enum(PORTAL_STATUSES)),
  default_language: Type.Optional(Type.Enum(PORTAL_LANGUAGES)),
  accent_color: Type.Optional(Nullable(AccentColor)),
  logo_upload_ref: Type.Optional(
    Nullable(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'An upload (POST /v1/files) of a PNG, JPEG or WebP image; null removes the logo',
      }),
    ),
  ),
  wait_steps: Type.Optional(
    Type.Array(WaitStep, {
      maxItems: MAX_WAIT_STEPS,
      description: 'Replaces the list; [] removes every step',
    }),
  ),
});

export const ShareLinkBody = Type.Object({
  business_contact_id: Type.String({
    format: 'uuid',
    description: 'An individual of the case, relevant, with an e-mail and `is_business_contact: true`',
  }),
  client_portal_id: Type.Optional(
    Type.String({ format: 'uuid', description: "Default: the workspace's default portal" }),
  ),
});

export const ShareLinkResponse = Type.Object({
  case_id: Uuid,
  client_portal_id: Uuid,
  business_contact: Type.Object({
    id: Uuid,
    first_name: Type.String(),
    last_name: Type.String(),
    email: Type.String(),
  }),
  link: Type.String({ description: 'The portal page for this contact; the token is in the URL fragment' }),
  expires_at: DateTime,
});

export const CompleteWaitStepBody = Type.Object({
  client_portal_id: Type.Optional(
    Type.String({
      format: 'uuid',
      description: "The case's portal (the one its last link was shared through)",
    }),
  ),
  wait_step_key: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'Default: the step the contact waits on' }),
  ),
});

export const CompleteWaitStepResponse = Type.Object({
  completed_wait_step_keys: Type.Array(Type.String(), { description: 'The steps this request completed' }),
});
