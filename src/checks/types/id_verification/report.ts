import { PdfWriter } from '../../../case-reports/pdf/writer.ts';
import type { IndividualRow } from '../../../db/schema.ts';
import { MATCH_DISTANCE, MISMATCH_DISTANCE } from '../../../face/compare.ts';
import { loadPdfLib } from '../../../shared/lazy-module.ts';
import type { FaceAnalysis } from './check-data.ts';

type Obj = Record<string, unknown>;
const show = (v: unknown) => (v === null || v === undefined || v === '' ? '-' : String(v));
const verdict = (v: unknown) => (v === null || v === undefined ? 'not evaluated' : String(v));

/**
 * The verification report (data.vendor.report_file_id): what was read from the document, what was
 * measured on the faces, each result and the decision, as a PDF a reviewer or an auditor can keep.
 */
export async function renderVerificationReport(input: {
  checkId: string;
  status: string;
  data: Obj;
  analysis: FaceAnalysis;
  person: IndividualRow;
  at: Date;
}): Promise<Buffer> {
  const { data, analysis, person } = input;
  const settings = data.settings as Obj;
  const vendor = data.vendor as Obj;
  const info = data.information as Obj;
  const detailed = data.detailed_results as { document: Obj; face: Obj };
  const { PDFDocument } = await loadPdfLib();
  const doc = await PDFDocument.create();
  doc.setTitle('Identity verification report');
  doc.setProducer('vericase');
  doc.setCreationDate(input.at);
  const w = await PdfWriter.create(doc);
  w.heading('Result');
  w.fields([
    ['Check', input.checkId],
    ['Check status', input.status],
    ['Result', show(data.result)],
    ['Verifier decision', show(vendor.verification_status)],
    ['Reason', show(vendor.comment)],
    ['Verifier', show(vendor.name)],
    ['Reference', show(vendor.verification_ref)],
    ['Started', show(vendor.started_at)],
    ['Ended', show(vendor.ended_at)],
    ['Mode', show(settings.mode)],
  ]);
  w.heading('Individual');
  w.fields([
    ['Name', `${person.first_name} ${person.last_name}`],
    ['Birth date', show(person.birth_date)],
  ]);
  w.heading('Document');
  w.fields([
    ['Type', show(info.document_type)],
    ['Number', show(info.document_number)],
    ['First name', show(info.first_name)],
    ['Last name', show(info.last_name)],
    ['Birth date', show(info.birth_date)],
    ['Nationality', show(info.nationality)],
    ['Issuing country', show(info.issuing_country)],
    ['Expiration date', show(info.expiration_date)],
    ['MRZ', show(info.mrz)],
  ]);
  w.heading('Document checks', 2);
  w.fields([
    ['MRZ check digits', verdict(detailed.document.data_validation)],
    ['Document not expired', verdict(detailed.document.data_consistency)],
    ['Matches the individual', verdict(detailed.document.data_comparison)],
    ['Visual authenticity', verdict(detailed.document.visual_authenticity)],
  ]);
  w.heading('Face checks', 2);
  w.fields([
    ['One face on the selfie', verdict(detailed.face.image_integrity)],
    ['Face match', verdict(detailed.face.face_comparison)],
    ['Liveness', 'not evaluated (a still selfie proves no liveness)'],
    ['Faces on the selfie', show(analysis.selfie_faces)],
    ['Faces on the document', show(analysis.document_faces)],
    ['Descriptor distance', analysis.distance === null ? '-' : analysis.distance.toFixed(3)],
    ['Thresholds', `match at most ${MATCH_DISTANCE}, mismatch from ${MISMATCH_DISTANCE}, review between`],
    [
      'Model',
      show(
        analysis.model ??
          (analysis.sandbox_outcome ? `sandbox (sandbox_outcome ${analysis.sandbox_outcome})` : null),
      ),
    ],
  ]);
  w.finish('Identity verification report', `Generated ${input.at.toISOString()}`);
  return Buffer.from(await doc.save());
}
