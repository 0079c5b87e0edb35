import { badRequest } from '../../../http/errors.ts';
import type { CheckTypeDefinition, CreatePlan } from '../../check-type.ts';
import { resolveSettings } from '../../settings.ts';
import { NO_CALLER, recordSignatureEvent } from './audit.ts';
import {
  ELECTRONIC_SIGNATURE_DEFAULTS,
  type ElectronicSignatureInternal,
  type ElectronicSignatureSettings,
  initialData,
} from './check-data.ts';
import { publishedVersionOf } from './deps.ts';
import { endRequestByReview } from './end-by-review.ts';
import { electronicSignaturePortal } from './portal.ts';
import { ElectronicSignatureCreateBody, ElectronicSignatureData } from './schemas.ts';
import { ELECTRONIC_SIGNATURE_TRANSITIONS } from './transitions.ts';

const KEY_FIELD = 'settings.document_template_key';

export const electronicSignatureCheck: CheckTypeDefinition = {
  type: 'electronic_signature',
  docs: {
    title: 'Electronic signature',
    about:
      'Asks an individual to sign a document rendered from a published document template, in the client portal, with a one-time code sent by e-mail. The signed PDF carries a CMS signature and comes with an audit trail.',
  },
  targets: ['individual'],
  isInternal: false,
  createBody: ElectronicSignatureCreateBody,
  dataSchema: ElectronicSignatureData,
  transitions: ELECTRONIC_SIGNATURE_TRANSITIONS,
  // the signer supplies the signature: an in_progress check waits for them (contact_has_actions)
  collectsData: true,
  finalRejection: true,
  subtypeOf: (settings) => `document_template:${String(settings.document_template_key ?? '')}`,
  async validateTemplateSettings(db, workspaceId, settings, kinds) {
    if (kinds.some((k) => k !== 'individual')) return 'electronic_signature targets individuals only';
    const key = settings.document_template_key;
    if (typeof key !== 'string' || !key) return `${KEY_FIELD} is required`;
    const found = await publishedVersionOf(db, workspaceId, key, 'electronic_signature');
    return found.ok ? null : found.reason;
  },
  async create({ trx, workspaceId, target, body, workspaceTypeSettings }): Promise<CreatePlan> {
    if (target.kind !== 'individual')
      throw badRequest('electronic_signature targets individuals', 'individual_id');
    const settings = resolveSettings<ElectronicSignatureSettings>(
      ELECTRONIC_SIGNATURE_DEFAULTS,
      workspaceTypeSettings,
      body.settings,
    );
    if (!settings.document_template_key) throw badRequest(`${KEY_FIELD} is required`, KEY_FIELD);
    // the signer confirms with a one-time code sent by e-mail: without an address the check could
    // never complete, and the case would wait for the signer for good
    if (!target.row.email?.trim()) {
      throw badRequest(
        'The individual has no email: the signer confirms with a code sent by e-mail; set it on the individual first',
        'email',
      );
    }
    // the signer signs in the client portal, whose links go to the case's business contacts and
    // not into a closed case: a check no signer could reach would keep the case waiting for good
    if (!target.row.is_business_contact) {
      throw badRequest(
        'The individual is not a business contact: the signer signs in the client portal, whose links are shared with business contacts; make them one first (is_business_contact)',
        'is_business_contact',
      );
    }
    const kase = await trx
      .selectFrom('cases')
      .select('status')
      .where('id', '=', target.row.case_id)
      .executeTakeFirst();
    if (kase?.status === 'closed') {
      throw badRequest(
        `The case is closed: its signer cannot reach the client portal (reopen it first: PATCH /v1/cases/${target.row.case_id} {"status": "open"})`,
        'individual_id',
      );
    }
    // refused now rather than when the signer opens the portal: the template must be usable
    const found = await publishedVersionOf(
      trx,
      workspaceId,
      settings.document_template_key,
      'electronic_signature',
    );
    if (!found.ok) throw badRequest(`${KEY_FIELD}: ${found.reason}`, KEY_FIELD);
    const internal: ElectronicSignatureInternal = {
      template_id: found.template.id,
      template_name: found.template.name,
    };
    return {
      status: 'in_progress',
      subtype: `document_template:${settings.document_template_key}`,
      data: initialData(settings),
      internal: internal as unknown as Record<string, unknown>,
    };
  },
  async afterCreate({ trx, check }) {
    await recordSignatureEvent(trx, check, 'created', NO_CALLER, {
      template_key: (check.data as { settings: ElectronicSignatureSettings }).settings.document_template_key,
    });
    return check;
  },
  portal: electronicSignaturePortal,
  // an operator's decision ends a signature request still open
  onReview: endRequestByReview,
};
