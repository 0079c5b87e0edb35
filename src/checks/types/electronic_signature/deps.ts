// The one place this check type reaches the document templates (publishedVersionOf,
// renderForCase) and the signing and mail modules (signPdf, auditTrailPdf, sendMail), so the rest
// of the folder reads as the check's own logic.
export { publishedVersionOf } from '../../../document-templates/published.ts';
export { sendMail } from '../../../mail/send-mail.ts';
export { renderForCase } from '../../../pdf-render/render-for-case.ts';
export { auditTrailPdf, signaturePngProblem, signingIdentity, signPdf } from '../../../signing/index.ts';
