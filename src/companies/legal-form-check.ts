/**
 * What a caller may write in a company's `entity_legal_form`: an ISO 20275 (ELF) code, and, when the
 * list is loaded (VERICASE_REFERENCE_DIR's elf/), an active one of the company's country (or one of
 * the placeholder codes 8888 and 9999, valid everywhere). Without a list only the code's form is
 * checked: a write is never refused for want of reference data. Codes that come from a registry
 * profile are not checked here: the registry is the authority on them (docs/company-data.md,
 * "Which code a company takes").
 */
import type { AppContext } from '../app-context.ts';
import { getLegalForms, type LegalFormIndex } from '../company-data/legal-forms/index.ts';
import { ApiError, type ErrorDetail } from '../http/errors.ts';

/** Four upper-case letters or digits: the shape of every ELF code. */
const ELF_CODE = /^[A-Z0-9]{4}$/;

export type LegalFormCheck = (
  code: string | null | undefined,
  country: string | null | undefined,
  path: string,
) => ErrorDetail | null;

/**
 * A checker bound to the list as it is now (read before any transaction opens). A list that cannot
 * be read counts as no list: the endpoint that serves it already answers 503 saying why.
 */
export async function legalFormChecker(ctx: Pick<AppContext, 'config'>): Promise<LegalFormCheck> {
  const index = await getLegalForms(ctx).catch(() => null);
  return (code, country, path) => checkCode(index, code, country, path);
}

/**
 * A checker of a new country against the code a company already has: refused only when the list
 * places that code in another country. A stored code the list no longer has (or never had, written
 * before the list was loaded) does not block a change of country: only a contradiction does.
 */
export async function countryChecker(ctx: Pick<AppContext, 'config'>): Promise<LegalFormCheck> {
  const index = await getLegalForms(ctx).catch(() => null);
  return (code, country, path) => {
    if (!index || !code || !country) return null;
    const form = index.byCode(code);
    if (!form?.country || form.country === country) return null;
    return {
      path,
      message: `${path}: ${country} does not fit the company's legal form ${code}, a form of ${form.country}; give the new country's entity_legal_form in the same request, or set entity_legal_form to null`,
    };
  };
}

function checkCode(
  index: LegalFormIndex | null,
  code: string | null | undefined,
  country: string | null | undefined,
  path: string,
): ErrorDetail | null {
  if (code === null || code === undefined) return null;
  const fail = (why: string) => ({ path, message: `${path}: ${why}` });
  if (!ELF_CODE.test(code)) {
    return fail(
      `${JSON.stringify(code)} is not an ISO 20275 legal form code (4 upper-case letters or digits, e.g. 6CHY; GET /v1/company-data/entity-legal-forms lists them)`,
    );
  }
  if (!index) return null;
  const form = index.byCode(code);
  if (!form) {
    return fail(
      `${code} is not an active ISO 20275 legal form (GET /v1/company-data/entity-legal-forms${country ? `?country=${country}` : ''} lists them)`,
    );
  }
  if (form.country && country && form.country !== country) {
    return fail(
      `${code} is a legal form of ${form.country}, not of the company's country ${country} (GET /v1/company-data/entity-legal-forms?country=${country} lists its forms)`,
    );
  }
  return null;
}

/** Throws the 400 for the first refused code; every refused one is in `details`. */
export function throwIfRefused(details: (ErrorDetail | null)[]): void {
  const refused = details.filter((d): d is ErrorDetail => d !== null);
  if (refused.length) throw new ApiError(400, refused[0].message, refused);
}
