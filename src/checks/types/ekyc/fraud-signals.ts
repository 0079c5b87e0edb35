import { isCountryCode } from '../../../shared/countries.ts';
import { lazyRequire } from '../../../shared/lazy-module.ts';

// its full metadata is large: required by the first phone number checked (src/shared/lazy-module.ts)
const phoneNumbers = lazyRequire<typeof import('libphonenumber-js/max')>('libphonenumber-js/max');

/**
 * E-mail and phone signals computed locally, for real (no network): e-mail syntax and reserved
 * domains, disposable and free-mail domains, role addresses; phone validity, line type and country
 * with libphonenumber.
 * Each finding is a rule with a weight; the weights add up to the fraud score (0-100).
 */
const DISPOSABLE_DOMAINS = new Set(
  (
    'mailinator.com guerrillamail.com guerrillamail.net sharklasers.com 10minutemail.com 10minutemail.net ' +
    'tempmail.com temp-mail.org temp-mail.io yopmail.com yopmail.fr yopmail.net trashmail.com trashmail.de ' +
    'getnada.com nada.email dispostable.com throwawaymail.com maildrop.cc mailnesia.com mintemail.com ' +
    'fakeinbox.com spamgourmet.com mytemp.email tempinbox.com emailondeck.com moakt.com tempr.email ' +
    'discard.email mohmal.com burnermail.io mailcatch.com spambox.us getairmail.com inboxkitten.com ' +
    'tmpmail.org tmpmail.net emailfake.com fakemail.net mailpoof.com 33mail.com anonaddy.me ' +
    'mail.tm mailsac.com tempail.com minuteinbox.com dropmail.me harakirimail.com'
  ).split(' '),
);
const FREE_MAIL_DOMAINS = new Set(
  (
    'gmail.com googlemail.com yahoo.com yahoo.fr yahoo.co.uk hotmail.com hotmail.fr outlook.com outlook.fr ' +
    'live.com msn.com aol.com icloud.com me.com mac.com gmx.com gmx.de gmx.net web.de free.fr orange.fr ' +
    'laposte.net sfr.fr proton.me protonmail.com mail.ru yandex.ru yandex.com zoho.com qq.com 163.com'
  ).split(' '),
);
/**
 * Territories with numbering plans of their own whose residents' addresses are often written in the
 * country they belong to: a Réunion mobile (+262, RE) with a French address, a Jersey one (JE) with
 * a British address. Compared through the country they belong to, they are no mismatch.
 */
const PHONE_HOME: Record<string, string> = {
  RE: 'FR',
  GP: 'FR',
  MQ: 'FR',
  GF: 'FR',
  YT: 'FR',
  PM: 'FR',
  BL: 'FR',
  MF: 'FR',
  NC: 'FR',
  PF: 'FR',
  WF: 'FR',
  JE: 'GB',
  GG: 'GB',
  IM: 'GB',
};
const phoneHome = (country: string) => PHONE_HOME[country] ?? country;

const ROLE_LOCAL_PARTS = new Set([
  'admin',
  'info',
  'contact',
  'support',
  'sales',
  'office',
  'hello',
  'noreply',
  'no-reply',
]);
const EMAIL_RE =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/**
 * Top-level domains that can never hold a mailbox, reserved by RFC 2606 and RFC 6761: `invalid`
 * (guaranteed never to resolve), `test` and `example` (testing and documentation, never delegated),
 * `localhost` (the local machine). An address there has a valid syntax, which is all the
 * individual's `email` format asks, but no mail can reach it: this is what makes EMAIL_INVALID
 * reachable through the API. The second-level `example.com`, `.net` and `.org` are not in it: they
 * exist in the DNS and are what people commonly type as a placeholder.
 */
const RESERVED_TLDS = new Set(['invalid', 'test', 'example', 'localhost']);

/**
 * Why the address cannot be delivered, or null. Not well formed: the shape (EMAIL_RE), `..`, over
 * 254 characters, a local part over 64 (RFC 5321 §4.5.3.1.1), an all-numeric top-level label (no
 * such TLD exists, RFC 3696 §2: `a@192.168.0.1` is an IP address without the brackets of an
 * address literal). Else a reserved top-level domain.
 */
function emailProblem(email: string, local: string, tld: string): string | null {
  const wellFormed =
    EMAIL_RE.test(email) &&
    !email.includes('..') &&
    email.length <= 254 &&
    local.length <= 64 &&
    !/^\d+$/.test(tld);
  if (!wellFormed) return 'The e-mail address is not well formed';
  if (RESERVED_TLDS.has(tld)) return `The e-mail domain is reserved (.${tld}) and can never receive mail`;
  return null;
}

interface Rule {
  code: string;
  description: string;
  weight: number;
}

function band(score: number): string {
  if (score < 25) return 'low';
  if (score < 50) return 'medium';
  if (score < 75) return 'high';
  return 'very_high';
}

/** The country of a two-letter top-level domain (`.uk` is GB); null for `.eu` and others that are no country. */
function domainCountry(tld: string): string | null {
  const code = tld === 'uk' ? 'GB' : tld.toUpperCase();
  return tld.length === 2 && isCountryCode(code) ? code : null;
}

function emailSignals(email: string, rules: Rule[]) {
  const [local = '', domain = ''] = email.toLowerCase().split('@');
  const tld = domain.split('.').pop() ?? '';
  const problem = emailProblem(email, local, tld);
  const valid = problem === null;
  const before = rules.length;
  if (problem) rules.push({ code: 'EMAIL_INVALID', description: problem, weight: 40 });
  if (DISPOSABLE_DOMAINS.has(domain))
    rules.push({
      code: 'EMAIL_DISPOSABLE',
      description: 'The e-mail domain is a disposable mailbox service',
      weight: 50,
    });
  if (ROLE_LOCAL_PARTS.has(local))
    rules.push({
      code: 'EMAIL_ROLE_ADDRESS',
      description: 'The e-mail is a role address, not a person',
      weight: 10,
    });
  if ((local.match(/\d/g) ?? []).length >= 5)
    rules.push({
      code: 'EMAIL_MANY_DIGITS',
      description: 'The e-mail local part has 5 digits or more',
      weight: 10,
    });
  if (FREE_MAIL_DOMAINS.has(domain))
    rules.push({
      code: 'EMAIL_FREE_PROVIDER',
      description: 'The e-mail is hosted by a free provider',
      weight: 5,
    });
  const risk = Math.min(
    100,
    rules.slice(before).reduce((s, r) => s + r.weight, 0),
  );
  return {
    email_validation: {
      address_valid: valid,
      bounce_risk: !valid ? 'high' : DISPOSABLE_DOMAINS.has(domain) ? 'medium' : 'low',
    },
    email_verification: {
      risk_score: risk,
      risk_band: band(risk),
      risk_level: band(risk),
      email_first_seen: null,
      domain_first_seen: null,
      domain_country: domainCountry(tld),
      mailbox_missing: null,
    },
  };
}

function phoneSignals(phone: string, addressCountry: string | null, rules: Rule[]) {
  const parsed = phoneNumbers().parsePhoneNumberFromString(phone);
  const valid = parsed?.isValid() ?? false;
  const type = valid ? (parsed?.getType() ?? null) : null;
  if (!valid)
    rules.push({ code: 'PHONE_INVALID', description: 'The phone number is not a valid number', weight: 30 });
  if (type === 'VOIP' || type === 'PREMIUM_RATE' || type === 'SHARED_COST')
    rules.push({
      code: 'PHONE_HIGH_RISK_LINE',
      description: `The phone line type is ${type.toLowerCase()}`,
      weight: 20,
    });
  if (valid && parsed?.country && addressCountry && phoneHome(parsed.country) !== phoneHome(addressCountry))
    rules.push({
      code: 'PHONE_COUNTRY_MISMATCH',
      description: 'The phone number belongs to another country than the address',
      weight: 15,
    });
  const network = parsed?.country ? { operator: null, country: parsed.country } : null;
  return {
    number_valid: valid,
    line_type: type ? type.toLowerCase() : null,
    current_network: network,
    original_network: network,
  };
}

export function computeFraudSignals(person: {
  email: string | null;
  phone_number: string | null;
  country: string | null;
}) {
  if (!person.email && !person.phone_number) return null;
  const rules: Rule[] = [];
  const email = person.email ? emailSignals(person.email, rules) : null;
  const mobile = person.phone_number ? phoneSignals(person.phone_number, person.country, rules) : null;
  const score = Math.min(
    100,
    rules.reduce((s, r) => s + r.weight, 0),
  );
  return {
    // each score carries its own band: a trust score of 10 is a low trust (its fraud score, 90, very high)
    trust: {
      score: 100 - score,
      band: band(100 - score),
      triggered_rules: rules.map(({ code, description }) => ({ code, description })),
    },
    fraud_score: { score, band: band(score), labels: rules.map((r) => r.code.toLowerCase()) },
    email_verification: email?.email_verification ?? null,
    email_validation: email?.email_validation ?? null,
    mobile_validation: mobile,
  };
}
