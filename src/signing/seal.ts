import type { PDFDocument, PDFPage } from 'pdf-lib';
import { lazyImport, loadPdfLib } from '../shared/lazy-module.ts';
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
  const {
    pdflibAddPlaceholder,
    P12Signer,
    SignPdf,
    SUBFILTER_ADOBE_PKCS7_DETACHED,
    DEFAULT_BYTE_RANGE_PLACEHOLDER,
  } = await loadSignPdf();
  const { PDFArray, PDFDict, PDFHexString, PDFInvalidObject, PDFName, PDFNumber, PDFRef, PDFString } =
    await loadPdfLib();
  pdflibAddPlaceholder({
    pdfDoc: doc,
    pdfPage: input.page,
    name: '',
    contactInfo: '',
    reason: '',
    location: '',
    signingTime: input.signedAt,
    signatureLength: SIGNATURE_LENGTH,
    subFilter: SUBFILTER_ADOBE_PKCS7_DETACHED,
    widgetRect: input.widgetRect,
    appName: 'vericase',
  });
  // The placeholder writes Name/Reason/... as literal strings of its argument's bytes (no escaping,
  // no encoding: "Дмитрий" would be garbage). Its signature dictionary (the widget it just added to
  // the page is the last annotation, its /V the dictionary) is replaced by the same one with those
  // four as PDF text strings: UTF-16BE with a byte order mark, hex-encoded, so any character
  // survives and nothing in the value can end the string.
  const annots = input.page.node.lookup(PDFName.of('Annots'), PDFArray);
  const widget = annots.lookup(annots.size() - 1, PDFDict);
  const sigRef = widget.get(PDFName.of('V'));
  if (!(sigRef instanceof PDFRef)) throw new Error('the signature placeholder has no signature dictionary');
  const byteRange = PDFArray.withContext(doc.context);
  byteRange.push(PDFNumber.of(0));
  for (let i = 0; i < 3; i++) byteRange.push(PDFName.of(DEFAULT_BYTE_RANGE_PLACEHOLDER));
  const dict = doc.context.obj({
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: SUBFILTER_ADOBE_PKCS7_DETACHED,
    ByteRange: byteRange,
    // as the placeholder writes it: @signpdf finds `/Contents <` and fills the digits in
    Contents: PDFHexString.of(String.fromCharCode(0).repeat(SIGNATURE_LENGTH)),
    Reason: PDFHexString.fromText(dictText(input.reason)),
    M: PDFString.fromDate(input.signedAt),
    ContactInfo: PDFHexString.fromText(dictText(input.contactInfo)),
    Name: PDFHexString.fromText(dictText(input.name)),
    Location: PDFHexString.fromText(dictText(input.location)),
    Prop_Build: { Filter: { Name: 'Adobe.PPKLite' }, App: { Name: 'vericase' } },
  });
  // kept out of object streams (the byte range must be found in plain text), as the placeholder does
  const dictBytes = new Uint8Array(dict.sizeInBytes());
  dict.copyBytesInto(dictBytes, 0);
  doc.context.assign(sigRef, PDFInvalidObject.of(dictBytes));
  const bytes = Buffer.from(await doc.save({ useObjectStreams: false }));
  const signer = new P12Signer(identity.p12, { passphrase: identity.password });
  return new SignPdf().sign(bytes, signer, input.signedAt);
}

/**
 * A value of the signature dictionary as it is (any script: "Дмитрий Ковалёв" stays so), without
 * control characters (a line break inside a name), and bounded in length (200 characters, never
 * cutting a surrogate pair).
 */
export function dictText(value: string): string {
  const chars = [...value].map((ch) => {
    const cp = ch.codePointAt(0) as number;
    return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) ? ' ' : ch;
  });
  return [...chars.join('').replace(/ {2,}/g, ' ').trim()].slice(0, 200).join('');
}
