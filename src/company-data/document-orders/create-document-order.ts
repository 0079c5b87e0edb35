import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import type { AppContext } from '../../app-context.ts';
import { lockCase, touchCase } from '../../cases/repository.ts';
import { findCompany } from '../../companies/repository.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { callRegistry } from '../call-registry.ts';
import type { CompanyRegistryProvider, ProviderDocument } from '../provider.ts';
import type { DocumentOrder, DocumentOrderCreate } from '../schemas.ts';
import { presentDocumentOrder } from './present.ts';
import { DOCUMENT_ORDER_QUEUE } from './queues.ts';
import { companyRegistryTarget } from './registry-target.ts';
import { insertDocumentOrder } from './repository.ts';

/**
 * The listed document a product_ref names. The sandbox also takes any product_ref containing
 * `fail` (documented in docs/sandbox.md): such an order is accepted, then fails.
 */
function orderable(
  provider: CompanyRegistryProvider,
  docs: ProviderDocument[],
  productRef: string,
): Pick<ProviderDocument, 'name' | 'price_tier'> | undefined {
  const listed = docs.find((d) => d.product_ref === productRef);
  if (listed) return listed;
  if (provider.vendor === 'sandbox' && productRef.toLowerCase().includes('fail')) {
    return { name: 'Sandbox document (fails)', price_tier: 'tier_0' };
  }
  return undefined;
}

/**
 * `POST /company-data/document-orders`: checks the product against what the company's registry
 * lists, then records the order (status `created`) and its job in one transaction.
 */
export async function createDocumentOrder(
  ctx: AppContext,
  workspaceId: string,
  body: Static<typeof DocumentOrderCreate>,
): Promise<Static<typeof DocumentOrder>> {
  const company = await findCompany(ctx.db, workspaceId, body.company_id);
  if (!company) throw notFound('Company', 'company_id');
  const { provider, ref } = companyRegistryTarget(ctx, company, 'company_id');
  const docs = await callRegistry(ctx, provider, (call) => provider.availableDocuments(ref, call));
  const doc = orderable(provider, docs, body.product_ref);
  if (!doc) {
    throw badRequest(
      `product_ref ${body.product_ref} is not a document the registry offers for this company (see GET /v1/company-data/available-documents)`,
      'product_ref',
    );
  }
  return ctx.db.transaction().execute(async (trx) => {
    // the case first, as every write under a case does; a case deleted meanwhile hides the company
    if (!(await lockCase(trx, workspaceId, company.case_id))) throw notFound('Company', 'company_id');
    const row = await insertDocumentOrder(trx, {
      id: randomUUID(),
      workspace_id: workspaceId,
      case_id: company.case_id,
      company_id: company.id,
      vendor: provider.vendor,
      country: ref.country,
      registry_ref: ref.vendorRef,
      product_ref: body.product_ref,
      name: doc.name,
      price_tier: doc.price_tier,
    });
    await touchCase(trx, company.case_id);
    // the job starts at once: the sandbox itself takes VERICASE_SANDBOX_DELAY_MS to deliver (the
    // order shows `processing` meanwhile), as a real registry takes its own time
    await ctx.jobs.send(trx, DOCUMENT_ORDER_QUEUE, { orderId: row.id });
    return presentDocumentOrder(row);
  });
}
