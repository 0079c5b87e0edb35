import type { Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { legalFormChecker, throwIfRefused } from '../companies/legal-form-check.ts';
import type { CaseCreateBody } from '../company-data/import/schemas.ts';
import type { CaseCreateInput } from './create-case.ts';

/**
 * The `entity_legal_form` each company of a case body gives, checked against the company's country
 * as it will be stored (a registry company's comes from its profile when the body gives none). The
 * companies a registry import appended after the body's are the registry's and are not checked.
 */
export async function checkCaseLegalForms(
  ctx: Pick<AppContext, 'config'>,
  body: Static<typeof CaseCreateBody>,
  input: CaseCreateInput,
): Promise<void> {
  const given = body.companies ?? [];
  if (!given.some((c) => c.entity_legal_form !== undefined && c.entity_legal_form !== null)) return;
  const check = await legalFormChecker(ctx);
  throwIfRefused(
    given.map((c, i) =>
      check(c.entity_legal_form, input.companies?.[i]?.country, `companies[${i}].entity_legal_form`),
    ),
  );
}
