import type { Static } from 'typebox';
import type { DocumentOrderRow } from '../../db/schema.ts';
import { iso } from '../../shared/time.ts';
import type { DocumentOrder } from '../schemas.ts';

/** An order as rows come from a query or from a JSON aggregate (timestamps as strings). */
type OrderLike = Omit<DocumentOrderRow, 'created_at' | 'updated_at'> & {
  created_at: Date | string;
  updated_at: Date | string;
};

export type DocumentOrderOut = Static<typeof DocumentOrder>;

/** The reference's `DocumentOrder`, plus `failure_reason`. */
export function presentDocumentOrder(o: OrderLike): DocumentOrderOut {
  return {
    id: o.id,
    company_id: o.company_id,
    product_ref: o.product_ref,
    name: o.name,
    price_tier: o.price_tier,
    status: o.status as DocumentOrderOut['status'],
    file_id: o.file_id,
    failure_reason: o.failure_reason,
    created_at: iso(o.created_at),
    updated_at: iso(o.updated_at),
  };
}

/** Orders grouped by company, each list in creation order. */
export function ordersByCompany(rows: OrderLike[]): Map<string, DocumentOrderOut[]> {
  const map = new Map<string, DocumentOrderOut[]>();
  for (const r of rows) {
    const list = map.get(r.company_id) ?? [];
    list.push(presentDocumentOrder(r));
    map.set(r.company_id, list);
  }
  return map;
}
