import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../../app-context.ts';
import { ActionOut, ActionParams, portalErrors } from '../../../portal/schemas.ts';
import type { Caller } from './audit.ts';
import { declineSignature } from './decline.ts';
import { frozenDocumentParts, frozenHtml, frozenPdf, signedPdf } from './documents.ts';
import { DeclineBody, DocumentPartsOut, SendCodeBody, SignBody } from './schemas.ts';
import { sendSignatureCode } from './send-code.ts';
import { signSignature } from './sign.ts';
import { startSignature } from './start.ts';

const callerOf = (req: FastifyRequest): Caller => ({
  ip: req.ip ?? null,
  userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : null,
});

/** What the frozen HTML may do in the page's frame: show itself, with inline styles and data: images only. */
const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; sandbox";

/**
 * The signing steps of an electronic_signature action, under the portal's API scope (the link's
 * token authorises them like every portal route): start, the frozen document (PDF, HTML, and the
 * HTML's parts for the portal page), the one-time code, sign, decline, and the signed PDF.
 * Documented in docs/electronic-signature.md.
 */
export function registerSignaturePortalRoutes(api: App, ctx: AppContext): void {
  const base = '/actions/:id/signature';
  const hidden = { hide: true, params: ActionParams };

  api.post(
    `${base}/start`,
    { schema: { ...hidden, response: { 200: ActionOut, ...portalErrors(400, 404) } } },
    async (req) => startSignature(ctx, req.portalAccess, req.params.id, callerOf(req)),
  );

  api.get(`${base}/document`, { schema: { ...hidden, response: portalErrors(404) } }, async (req, reply) => {
    const pdf = await frozenPdf(ctx, req.portalAccess, req.params.id);
    return reply
      .type('application/pdf')
      .header('content-disposition', 'inline; filename="document.pdf"')
      .header('x-content-type-options', 'nosniff')
      .send(pdf);
  });

  api.get(
    `${base}/document.html`,
    { schema: { ...hidden, response: portalErrors(404) } },
    async (req, reply) => {
      const html = await frozenHtml(ctx, req.portalAccess, req.params.id);
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', HTML_CSP)
        .header('x-content-type-options', 'nosniff')
        .send(html);
    },
  );

  // the portal page's form of the HTML: its styles apart, so the page's CSP never meets an inline one
  api.get(
    `${base}/document-parts`,
    { schema: { ...hidden, response: { 200: DocumentPartsOut, ...portalErrors(404) } } },
    async (req) => frozenDocumentParts(ctx, req.portalAccess, req.params.id),
  );

  api.get(
    `${base}/signed-document`,
    { schema: { ...hidden, response: portalErrors(404) } },
    async (req, reply) => {
      const pdf = await signedPdf(ctx, req.portalAccess, req.params.id);
      return reply
        .type('application/pdf')
        .header('content-disposition', 'attachment; filename="signed-document.pdf"')
        .header('x-content-type-options', 'nosniff')
        .send(pdf);
    },
  );

  api.post(
    `${base}/send-code`,
    {
      schema: { ...hidden, body: SendCodeBody, response: { 200: ActionOut, ...portalErrors(400, 404) } },
    },
    async (req) => sendSignatureCode(ctx, req.portalAccess, req.params.id, req.body.language, callerOf(req)),
  );

  api.post(
    `${base}/sign`,
    {
      bodyLimit: 2 * 1024 * 1024,
      schema: { ...hidden, body: SignBody, response: { 200: ActionOut, ...portalErrors(400, 404, 409) } },
    },
    async (req) => signSignature(ctx, req.portalAccess, req.params.id, req.body, callerOf(req)),
  );

  api.post(
    `${base}/decline`,
    {
      schema: { ...hidden, body: DeclineBody, response: { 200: ActionOut, ...portalErrors(400, 404, 409) } },
    },
    async (req) => declineSignature(ctx, req.portalAccess, req.params.id, req.body.reason, callerOf(req)),
  );
}
