import { createHash } from 'node:crypto';
import type { AppContext } from '../app-context.ts';
import { loadPdfLib } from '../shared/lazy-module.ts';
import type { BlockLabels } from './block-labels.ts';
import { signingIdentity } from './identity.ts';
import { seal } from './seal.ts';
import { drawSignatureBlock } from './signature-block.ts';

export interface SignPdfInput {
  signerName: string;
  signerEmail: string;
  signedAt: Date;
  reason: string;
  location?: string;
  /** The signature the signer drew (PNG); else `typedSignature`, else the signer's name, is written. */
  drawnSignaturePng?: Buffer | null;
  typedSignature?: string | null;
  /** The visible block's words in the signer's language (English when not given) */
  labels?: BlockLabels;
}

/**
 * Signs a document: a visible signature block on the last page (docs/electronic-signature.md,
 * "Signing and verification") and a PDF signature with the service's identity covering the whole
 * file, block included. The PDF is rewritten once (pdf-lib) and then signed, so the result holds a
 * single signature revision; an input that is already signed loses its earlier signatures.
 */
export async function signPdf(ctx: AppContext, pdf: Buffer, input: SignPdfInput): Promise<Buffer> {
  const identity = await signingIdentity(ctx);
  const { PDFDocument } = await loadPdfLib();
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const { page, rect } = await drawSignatureBlock(doc, pdf, {
    signerName: input.signerName,
    signerEmail: input.signerEmail,
    signedAt: input.signedAt,
    reason: input.reason,
    documentSha256: createHash('sha256').update(pdf).digest('hex'),
    drawnSignaturePng: input.drawnSignaturePng ?? null,
    typedSignature: input.typedSignature ?? null,
    labels: input.labels,
  });
  return seal(doc, identity, {
    page,
    widgetRect: rect,
    name: input.signerName,
    contactInfo: input.signerEmail,
    reason: input.reason,
    location: input.location ?? '',
    signedAt: input.signedAt,
  });
}
