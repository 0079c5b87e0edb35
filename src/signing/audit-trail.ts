import type { AppContext } from '../app-context.ts';
import { PdfWriter } from '../case-reports/pdf/writer.ts';
import { isolate } from '../shared/bidi-text.ts';
import { loadPdfLib } from '../shared/lazy-module.ts';
import { signingIdentity } from './identity.ts';
import { seal } from './seal.ts';
import { utc } from './signature-block.ts';

export interface AuditTrailInput {
  title: string;
  signer: { name: string; email: string };
  events: {
    at: Date;
    type: string;
    ip: string | null;
    user_agent: string | null;
    details?: Record<string, unknown>;
  }[];
  /** SHA-256 (hex) of the document as presented to the signer. */
  documentSha256: string;
  /** SHA-256 (hex) of the signed document; null when there is none (declined). */
  signedSha256: string | null;
}

/**
 * The audit trail of one signature as a PDF: the document, the signer, both hashes, the signing
 * certificate and every event in time order (UTC time, type, IP, user agent, details), laid out
 * with the case report's writer (A4, standard fonts: no browser needed) and signed with the
 * service's identity (an invisible signature: the whole trail is the statement).
 */
export async function auditTrailPdf(
  ctx: AppContext,
  input: AuditTrailInput,
  now = new Date(),
): Promise<Buffer> {
  const identity = await signingIdentity(ctx);
  const { PDFDocument } = await loadPdfLib();
  const doc = await PDFDocument.create();
  doc.setTitle(`Audit trail: ${input.title}`);
  doc.setProducer('vericase');
  doc.setCreationDate(now);
  doc.setModificationDate(now);
  const w = await PdfWriter.create(doc);
  w.heading('Signature audit trail');
  w.text(
    'Every step of this signature as the service recorded it, times in UTC. The first SHA-256 identifies ' +
      'the file shown to the signer, the second the signed file it became; this trail is signed by the ' +
      'same certificate.',
    { grey: true },
  );
  w.gap(4);
  w.fields([
    ['Document', input.title],
    ['Signer', input.signer.name],
    ['Signer e-mail', input.signer.email],
    ['Document SHA-256 (as presented, before signing)', input.documentSha256],
    ['Signed document SHA-256', input.signedSha256 ?? 'none (not signed)'],
    ['Signing certificate', identity.subject],
    ['Generated', utc(now)],
  ]);
  w.heading('Events');
  const events = [...input.events].sort((a, b) => a.at.getTime() - b.at.getTime());
  if (!events.length) w.text('No event recorded.', { grey: true });
  for (const e of events) {
    const rows: [string, string][] = [
      ['IP address', e.ip ?? '-'],
      ['User agent', e.user_agent ?? '-'],
      ...Object.entries(e.details ?? {}).map(([k, v]): [string, string] => [k, detail(v)]),
    ];
    // an event is read as one block: its rows are not left at the top of a page without their heading
    w.block(`${utc(e.at)}  ${e.type}`, rows);
  }
  w.finish(`Audit trail: ${isolate(input.title)}`, `Generated ${utc(now)}`);
  const pages = doc.getPages();
  return seal(doc, identity, {
    page: pages[pages.length - 1],
    widgetRect: [0, 0, 0, 0],
    name: 'vericase signing service',
    contactInfo: '',
    reason: `Audit trail of the signature of ${input.title} by ${input.signer.name}`,
    location: '',
    signedAt: now,
  });
}

function detail(v: unknown): string {
  if (v === null || v === undefined) return '-';
  if (v instanceof Date) return utc(v);
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}
