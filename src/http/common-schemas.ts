import { type TSchema, Type } from 'typebox';
import { NOT_BLANK } from './schema-formats.ts';
import { MAX_KEY_LENGTH } from './strict-schema.ts';

/** Schema building blocks shared by every resource. */
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
export const Uuid = Type.String({ format: 'uuid' });
/**
 * A text a person reads (a name, a label, a title): not empty and not only white space (`'   '`
 * would pass `minLength` and show nothing where the text is displayed). Refused as "must not be
 * blank".
 */
export const NonBlank = (options: { maxLength?: number; description?: string } = {}) =>
  Type.String({ minLength: 1, pattern: NOT_BLANK, ...options });
export const DateTime = Type.String({ format: 'date-time' });
export const DateOnly = Type.String({ format: 'date', description: 'yyyy-MM-dd' });
/**
 * A day given as a date or as an instant (read as its UTC day, `toUtcDate`): where the spec types a
 * field as a timestamp and the reference as a date, a client written for either is answered.
 */
export const DateOrDateTime = Type.String({
  format: 'date-or-date-time',
  description: 'yyyy-MM-dd, or an ISO 8601 date-time (its UTC day is kept)',
});
/** The UTC day of a `DateOrDateTime` value (a date stays as it is). */
export const toUtcDate = (v: string) => (v.length === 10 ? v : new Date(v).toISOString().slice(0, 10));
export const Country = Type.String({ format: 'alpha-2', description: 'ISO 3166-1 alpha-2 country code' });

export const CustomProperties = Type.Record(
  Type.String(),
  Type.Union([Type.String(), Type.Boolean(), Type.Number(), Type.Array(Type.String()), Type.Null()]),
  // a property is named: "" or " " made a definition no GET /v1/custom-properties/case/{key} can read
  { propertyNames: { pattern: NOT_BLANK, maxLength: MAX_KEY_LENGTH } },
);
export const Metadata = Nullable(Type.Record(Type.String(), Type.String()));

export const ErrorBody = Type.Object(
  {
    status_code: Type.Integer(),
    timestamp: DateTime,
    code: Type.String({
      description:
        'BAD_REQUEST, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, CONFLICT, PRECONDITION_FAILED, PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, TOO_MANY_REQUESTS, INTERNAL_SERVER_ERROR, BAD_GATEWAY, SERVICE_UNAVAILABLE; or a specific code such as COMPANY_DATA_LIMIT_REACHED',
    }),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
  },
  { $id: 'ErrorBody', description: 'Error body of every 4xx and 5xx response' },
);

const errorRef = Type.Ref('ErrorBody');
const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed request or invalid parameters; `details` names each offending field',
  401: 'Missing, unknown or revoked API key',
  403: "A console session's role does not allow this, or its X-CSRF-Token is missing or wrong",
  404: 'Not found in this workspace',
  409: 'Conflict (a taken external_id, or an Idempotency-Key reused with another body)',
  412: 'If-Match names a version that is no longer the current one: read the resource again (its ETag), nothing was written',
  413: 'Payload too large',
  415: 'Unsupported media type',
  429: 'Rate limit exceeded; see Retry-After',
  502: 'An upstream service (e.g. a company registry) gave an unusable answer',
  503: 'Temporarily unavailable: the database or the file storage did not answer in time, or what the route needs is not loaded yet (a sanctions list); see Retry-After',
};

/** Error responses for a route's OpenAPI entry. 401 and 429 apply to every /v1 route. */
export function errors(...codes: number[]) {
  const out: Record<number, TSchema> = {};
  for (const code of [...codes, 401, 429]) {
    out[code] = Type.Unsafe({ ...errorRef, description: ERROR_TEXT[code] ?? 'Error' });
  }
  return out;
}

export const IdParam = Type.Object({ id: Uuid });
export const CaseIdParam = Type.Object({
  id: Type.String({ description: 'Case id, or its external_id' }),
});

export const SetRelevant = Type.Object({ is_relevant: Type.Boolean() });
