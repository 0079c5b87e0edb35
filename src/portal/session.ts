import type { Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { pendingFilesOf, presentAction, shownChecks } from './actions.ts';
import type { PortalAccess } from './auth.ts';
import type { SessionOut } from './schemas.ts';

/** The accent colour of a portal that has none of its own. */
export const DEFAULT_ACCENT_COLOR = '#2f6fed';

/** The path the page fetches the logo from (with the same bearer token). */
export const LOGO_PATH = '/portal/api/logo';

/** A URL the page may send the contact to: http(s) only, nothing a page could run. */
function safeRedirect(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Whether the contact gave what this action asked: sent and being checked, or approved. Not a step
 * to do or to send again (`todo`, `retry`: a signature declined, or signed and then rejected, is
 * `retry` too), and for a signature only one signed: a request closed without the signer (`ended`:
 * an operator's review, an expiry, even an approval) or declined (even once an operator overrode the
 * decision) was never received. The page then keeps its checklist, which says how each step stands,
 * rather than telling a signer whose request was closed "we have everything we asked for".
 */
function received(a: { state: string; signature?: { status: string } | null }): boolean {
  const sent = a.state === 'submitted' || a.state === 'approved';
  return sent && (!a.signature || a.signature.status === 'signed');
}

/**
 * `GET /portal/api/session`: everything the page shows, read from the link alone: the portal's
 * branding, the case's and its main company's names, the contact, the actions with their pending
 * files, whether everything was submitted, and the wait step the contact reached.
 */
export async function readSession(ctx: AppContext, access: PortalAccess): Promise<Static<typeof SessionOut>> {
  const { link, portal } = access;
  const db = ctx.db;
  const caseRow = await db
    .selectFrom('cases')
    .select(['name', 'client_portal_wait_step_key'])
    .where('id', '=', link.case_id)
    .executeTakeFirstOrThrow();
  const company = await db
    .selectFrom('companies')
    .select('name')
    .where('case_id', '=', link.case_id)
    .where('type', '=', 'main')
    .executeTakeFirst();
  const contact = await db
    .selectFrom('individuals')
    .select(['first_name', 'last_name'])
    .where('id', '=', link.individual_id)
    .executeTakeFirstOrThrow();
  const shown = await shownChecks(db, link);
  const pending = await pendingFilesOf(
    db,
    shown.map((s) => s.check.id),
  );
  const actions = [];
  for (const s of shown) actions.push(await presentAction(db, s, pending));
  // a check link may send the contact on afterwards (id_verification's settings.redirect_url)
  const only = link.check_id ? shown[0]?.check : undefined;
  const settings = (only?.data as { settings?: { redirect_url?: unknown } } | undefined)?.settings;
  const waitKey = caseRow.client_portal_wait_step_key;
  const waitStep = waitKey ? (portal.wait_steps ?? []).find((w) => w.key === waitKey) : undefined;
  return {
    portal: {
      name: portal.name,
      default_language: portal.default_language,
      accent_color: portal.accent_color ?? DEFAULT_ACCENT_COLOR,
      logo_url: portal.logo_file_id ? LOGO_PATH : null,
    },
    case: { name: caseRow.name, company_name: company?.name ?? null },
    contact: { first_name: contact.first_name, last_name: contact.last_name },
    scope: link.check_id ? 'check' : 'case',
    expires_at: link.expires_at.toISOString(),
    redirect_url: safeRedirect(settings?.redirect_url),
    actions,
    all_submitted: actions.every(received),
    wait_step: waitStep ? { key: waitStep.key, title: waitStep.title } : null,
  };
}
