import type { IdVerificationMode } from './check-data.ts';

// What `settings.mode` changes (docs/id-verification.md). The verification itself is the same in
// every mode: a still selfie proves no liveness, so no mode claims it.
// - auto, default: results are decided automatically per automatic_approval / automatic_rejection;
// - expert, certified: systematic human review: every result goes to need_review;
// - liveness, certified: the portal requires a short video of the person, which the service stores
//   but cannot analyse: an approval goes to a person, who watches it (a rejection stays automatic in
//   liveness).

export const videoRequired = (mode: IdVerificationMode) => mode === 'liveness' || mode === 'certified';

/** Whether a result the verifier approved may be approved without a person. */
export const mayApproveAutomatically = (mode: IdVerificationMode) => mode === 'auto' || mode === 'default';

/** Whether a result the verifier rejected may be rejected without a person. */
export const mayRejectAutomatically = (mode: IdVerificationMode) => mode !== 'expert' && mode !== 'certified';
