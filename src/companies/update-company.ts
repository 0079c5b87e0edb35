import type { Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { followEntityUpdate, updateEntityRow } from '../cases/entity-update.ts';
import { findInLiveCase, lockCase, touchCase } from '../cases/repository.ts';
import { recordEvents } from '../events/record-event.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { companyView } from './company-view.ts';
import { countryChecker, legalFormChecker, throwIfRefused } from './legal-form-check.ts';
import { findCompany } from './repository.ts';
import type { CompanyUpdate } from './schemas.ts';
import { companyUpdateSet } from './to-row.ts';

export async function updateCompany(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  input: Static<typeof CompanyUpdate> & { is_relevant?: boolean },
  subEvent = 'Company.InfoUpdated',
) {
  const found = await findCompany(ctx.db, workspaceId, id);
  if (!found) throw notFound('Company');
  // the ISO 20275 list is read before the transaction: a code given is checked against the country
  // the company will have (given in the same body, or stored)
  const checkLegalForm = typeof input.entity_legal_form === 'string' ? await legalFormChecker(ctx) : null;
  // a new country alone is checked against the code stored: a French SAS does not become German
  const checkCountry =
    input.entity_legal_form === undefined && typeof input.country === 'string'
      ? await countryChecker(ctx)
      : null;
  return ctx.db.transaction().execute(async (trx) => {
    // the case first, as every write under a case does: one lock order, no deadlock with case writes
    if (!(await lockCase(trx, workspaceId, found.case_id))) throw notFound('Company');
    // read again under the lock: address and banking_information merge into what is stored now, not
    // into what was read before another request's change committed (a lost update)
    const current = await findInLiveCase(trx, 'companies', workspaceId, found.id, { forUpdate: true });
    if (!current) throw notFound('Company');
    if (checkLegalForm) {
      const country = input.country !== undefined ? input.country : current.country;
      throwIfRefused([checkLegalForm(input.entity_legal_form, country, 'entity_legal_form')]);
    }
    if (checkCountry) throwIfRefused([checkCountry(current.entity_legal_form, input.country, 'country')]);
    // the reference refuses set-relevant on anything but an affiliated company: a main company not
    // relevant left the detailed case without its main company. `true` stays a no-op (and repairs
    // a main company marked not relevant before this was refused)
    if (input.is_relevant === false && current.type === 'main') {
      throw badRequest(
        'The main company is always relevant: only an affiliated company can be marked not relevant',
        'is_relevant',
      );
    }
    const row = await updateEntityRow(trx, 'companies', current, input, companyUpdateSet(input));
    // a write that changes nothing is no change: no stamp, no event, no template run (a no-op)
    if (!row) return companyView(trx, ctx, current);
    await touchCase(trx, row.case_id);
    const company = await companyView(trx, ctx, row);
    await recordEvents(trx, workspaceId, [
      { type: 'Company.Updated', sub_event: subEvent, case_id: row.case_id, payload: { company } },
    ]);
    const templated = await followEntityUpdate(ctx, trx, workspaceId, { before: current, after: row }, input);
    return templated ? companyView(trx, ctx, row) : company;
  });
}
