import type { Db } from '../db/connect.ts';

// A case-wide link is shared with a relevant individual who has an e-mail and is a business
// contact (share-link.ts). When an update takes one of these away, the person is no longer the
// contact the link was given to, so their links stop working in the update's transaction, exactly
// as a replaced link does (revoked_at: the portal answers PORTAL_LINK_REVOKED). Revocation is for
// good: restoring the field does not bring a link back; the operator shares a new one, a deliberate
// act (docs/client-portal.md, "Lifetime and revocation").

/** The fields of an individual that decide whether it is still the contact its links were given to. */
export interface ContactFields {
  id: string;
  case_id: string;
  email: string | null;
  is_relevant: boolean;
  is_business_contact: boolean;
}

/** Addresses compared as a mailbox is: case and surrounding spaces do not make another one. */
const mailbox = (email: string | null) => email?.trim().toLowerCase() || null;

/**
 * Revokes the live links of an individual that an update made no longer a contact of its case:
 * - marked not relevant: every link of theirs (case-wide, signature, verification URL): the person
 *   is out of the case;
 * - no longer a business contact, or their e-mail removed or changed to another address: every link
 *   but an id_verification's verification URL, which is given for the check of any individual of
 *   the case and needs neither an e-mail nor the contact flag. A signature's link goes with the
 *   case-wide one: the contact reached it through that link and its code goes to the e-mail.
 */
export async function revokeLinksOfFormerContact(
  trx: Db,
  before: ContactFields,
  after: ContactFields,
): Promise<void> {
  const outOfCase = before.is_relevant && !after.is_relevant;
  const noLongerContact =
    (before.is_business_contact && !after.is_business_contact) ||
    (mailbox(before.email) !== null && mailbox(before.email) !== mailbox(after.email));
  if (!outOfCase && !noLongerContact) return;
  let q = trx
    .updateTable('client_portal_links')
    .set({ revoked_at: new Date() })
    .where('case_id', '=', after.case_id)
    .where('individual_id', '=', after.id)
    .where('revoked_at', 'is', null);
  if (!outOfCase) {
    q = q.where((eb) =>
      eb.or([
        eb('check_id', 'is', null),
        eb(
          'check_id',
          'not in',
          eb
            .selectFrom('checks')
            .select('id')
            .where('type', '=', 'id_verification')
            .where('individual_id', '=', after.id),
        ),
      ]),
    );
  }
  await q.execute();
}
