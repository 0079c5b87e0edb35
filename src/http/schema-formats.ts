import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isCountryCode } from '../shared/countries.ts';
import { hasVisibleText, VISIBLE_TEXT } from '../shared/visible-text.ts';

type Checked = { validate: (v: string) => boolean };
const isDate = (fullFormats.date as Checked).validate;
const isDateTime = (fullFormats['date-time'] as Checked).validate;

/**
 * The pattern of a display text (src/http/common-schemas.ts, NonBlank): at least one character that
 * is neither white space nor invisible (src/shared/visible-text.ts: `\u200b` alone is blank too).
 * Its validation error reads "must not be blank" (src/http/errors.ts).
 */
export const NOT_BLANK = VISIBLE_TEXT;

/**
 * The pattern of a two-letter country code where the value need not be an ISO 3166-1 country (the
 * legal-form list's XK, a settings map's keys). Its validation error reads like the `alpha-2`
 * format's (src/http/errors.ts), so every country parameter is refused in the same words.
 */
export const TWO_LETTER_COUNTRY = '^[A-Z]{2}$';

/** https://html.spec.whatwg.org/multipage/input.html#valid-e-mail-address */
const HTML_EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Formats used by our schemas beyond ajv-formats' standard ones (and the e-mail format, redefined). */
export const customFormats: Record<string, (v: string) => boolean> = {
  'alpha-2': isCountryCode,
  'e.164': (v) => /^\+[1-9]\d{6,14}$/.test(v),
  // the spec types next_review_at as a timestamp, the reference as a date: both are taken
  'date-or-date-time': (v) => isDate(v) || isDateTime(v),
  // tag filters take comma-separated values: list separators cannot be part of a label
  'tag-label': (v) => hasVisibleText(v) && !/[,;:|/\\]/.test(v),
  // the HTML standard's "valid e-mail address", as the reference defines the field: a domain needs
  // no dot (`ops@localhost`, the first console admin's), which ajv-formats' own e-mail refused
  email: (v) => HTML_EMAIL.test(v),
};

export const FORMAT_MESSAGES: Record<string, string> = {
  'alpha-2': 'must be an ISO 3166-1 alpha-2 country code (e.g. FR)',
  'e.164': 'must be a phone number in E.164 format (e.g. +33612345678)',
  date: 'must be a date (yyyy-MM-dd)',
  'date-time': 'must be an ISO 8601 date-time',
  'date-or-date-time': 'must be a date (yyyy-MM-dd) or an ISO 8601 date-time',
  uuid: 'must be a UUID',
  'tag-label': 'must be a tag label: not blank, without , ; : | / \\',
  email: 'must be an e-mail address',
};

/**
 * What a value refused by a schema's `pattern` must look like, in words: Ajv's own message quotes
 * the regular expression ("must match pattern \"^\\d{4}(-\\d{2}-\\d{2})?$\""). Keyed by the
 * pattern as the schemas write it; test/validation-messages.test.ts checks that every pattern of
 * the OpenAPI document has its words here.
 */
/**
 * A company's website: a domain with an optional path, or an http(s) URL. Another scheme
 * (`javascript:`, `data:`, `ftp:`) is no website, and the address becomes a link in the online
 * reputation check's sources.
 */
export const WEBSITE = '^(?:[Hh][Tt][Tt][Pp][Ss]?://)?[^\\s/:?#@]+\\.[^\\s/?#@]+(?:[/?#]\\S*)?$';

export const PATTERN_MESSAGES: Record<string, string> = {
  [NOT_BLANK]: 'must not be blank',
  [TWO_LETTER_COUNTRY]: FORMAT_MESSAGES['alpha-2'] as string,
  '^\\d{4}(-\\d{2}-\\d{2})?$': 'must be a date (yyyy-MM-dd) or a year (yyyy)',
  '^[a-z0-9_]{1,64}$': 'must be 1 to 64 lower-case letters, digits or underscores',
  '^[a-z][a-z_0-9]*$': 'must be lower-case letters, digits or underscores, starting with a letter',
  '^[A-Za-z0-9][A-Za-z0-9_.:-]*$': 'must hold only letters, digits, _ . : - and start with a letter or digit',
  '^[A-Za-z0-9_-]{1,64}$': 'must be 1 to 64 letters, digits, _ or -',
  '^#[0-9A-Fa-f]{6}$': 'must be a hex colour #rrggbb (e.g. #1a73e8)',
  '^https?://[^\\s]+$': 'must be an http:// or https:// URL without spaces',
  [WEBSITE]:
    'must be a web address: a domain (acme.fr, www.acme.fr/contact) or an http:// or https:// URL, without spaces',
  '^[A-Za-z0-9-]+$': 'must be an HTTP header name: letters, digits and -',
  '^space_[A-Za-z0-9]{12}$':
    'must be a space slug: space_ and 12 letters or digits (e.g. space_7hk92Q75dm0a)',
};
