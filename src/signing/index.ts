// The signing contract (issue 14): the check type imports from here.
export { auditTrailPdf } from './audit-trail.ts';
export { signingIdentity } from './identity.ts';
export { signPdf } from './sign-pdf.ts';
export { SignatureImageError, signaturePngProblem } from './signature-image.ts';
