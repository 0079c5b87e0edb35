import anyAscii from 'any-ascii';
import type { PDFDocument, PDFPage } from 'pdf-lib';
import { lazyImport } from '../shared/lazy-module.ts';
import type { SigningIdentity } from './identity.ts';

// @signpdf (and the pdf-lib it imports) load with the first signature (src/shared/lazy-module.ts)
const loadSignPdf = lazyImport(async () => ({
  ...(await import('@signpdf/placeholder-pdf-lib')),
  ...(await import('@signpdf/signer-p12')),
  ...(await import('@signpdf/signpdf')),
  ...(await import('@signpdf/utils')),
}));

/**
 * Size of the placeholder for the CMS signature, in hex digits: room for 16 KB of DER. One
 * 2048-bit certificate and its signature take about 2 KB; a configured P12 may carry a chain of
 * several certificates, all embedded, so the room is generous (unused room stays zeros, which
 * every reader accepts).
 */
const SIGNATURE_LENGTH = 32_768;

export interface SealInput {
  /** The page the signature's widget is on, and its rectangle there ([0,0,0,0]: invisible). */
  page: PDFPage;
  widgetRect: [number, number, number, number];
  name: string;
  contactInfo: string;
  reason: string;
  location: string;
  signedAt: Date;
}

/**
 * Adds the signature dictionary and its widget to `doc`, writes it without object streams (the
 * byte range must be found in plain text) and signs it: a detached PKCS#7/CMS signature
 * (`adbe.pkcs7.detached`, SHA-256, signing time as a signed attribute) over every byte of the file
 * except the signature itself, so changing any byte makes it invalid.
 */
export async function seal(doc: PDFDocument, identity: SigningIdentity, input: SealInput): Promise<Buffer> {
  const { pdflibAddPlaceholder, P12Signer, SignPdf, SUBFILTER_ADOBE_PKCS7_DETACHED } = await loadSignPdf();
  pdflibAddPlaceholder({
    pdfDoc: doc,
    pdfPage: input.page,
    name: dictText(input.name),
    contactInfo: dictText(input.contactInfo),
    reason: dictText(input.reason),
    location: dictText(input.location),
    signingTime: input.signedAt,
    signatureLength: SIGNATURE_LENGTH,
    subFilter: SUBFILTER_ADOBE_PKCS7_DETACHED,
    widgetRect: input.widgetRect,
    appName: 'vericase',
  });
  const bytes = Buffer.from(await doc.save({ useObjectStreams: false }));
  const signer = new P12Signer(identity.p12, { passphrase: identity.password });
  return new SignPdf().sign(bytes, signer, input.signedAt);
}

/**
 * The placeholder writes these values as PDF literal strings as they are (no escaping, one byte per
 * character): kept to printable ASCII (transliterated: "Zoë Łukasz" → "Zoe Lukasz"), without the
 * backslash and parentheses that would end or escape the string, and bounded in length.
 */
export function dictText(value: string): string {
  return anyAscii(value)
    .replace(/[^\x20-\x7e]/g, ' ')
    .replace(/[\\()]/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
    .slice(0, 200);
}
