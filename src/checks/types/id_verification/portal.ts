import type { PortalActionDefinition, PortalSlot } from '../../../portal/portal-action.ts';
import { identityRetryReason } from '../../../portal/retry-reasons.ts';
import type { CheckTypeDefinition } from '../../check-type.ts';
import type { IdVerificationSettings } from './check-data.ts';
import { videoRequired } from './modes.ts';
import { submitCapture } from './submit.ts';

const IMAGES = 'image/jpeg,image/png';

/**
 * How an id_verification check appears in the client portal: only to the person it verifies (a
 * live selfie must be the contact's own face), with the document front taken with the back camera,
 * an optional back, a selfie with the front camera and a short video (required by the modes that
 * ask a person to look at it).
 */
export function idVerificationPortal(def: () => CheckTypeDefinition): PortalActionDefinition {
  return {
    audience: 'own_checks',
    slots(check): PortalSlot[] {
      const settings = (check.data as { settings: IdVerificationSettings }).settings;
      const video = videoRequired(settings.mode);
      return [
        { key: 'front', required: true, min_files: 1, max_files: 1, accept: IMAGES, capture: 'environment' },
        { key: 'back', required: false, min_files: 0, max_files: 1, accept: IMAGES, capture: 'environment' },
        { key: 'face', required: true, min_files: 1, max_files: 1, accept: IMAGES, capture: 'user' },
        {
          key: 'video',
          required: video,
          min_files: video ? 1 : 0,
          max_files: 1,
          accept: 'video/webm,video/mp4,video/quicktime',
          capture: 'user',
        },
      ];
    },
    // no label or description: the portal page names and describes the step in its own language
    async describe() {
      return { label: null, description: null };
    },
    retryReason: identityRetryReason,
    async submit({ ctx, trx, check, files, ip }) {
      await submitCapture(ctx, trx, def(), check, files, ip);
    },
  };
}
