import { isolate } from '../../shared/bidi-text.ts';
import { loadPdfLib } from '../../shared/lazy-module.ts';
import type { ReportData } from '../load-report-data.ts';
import { timeFormatter } from '../timezone.ts';
import { caseSection } from './section-case.ts';
import { checksSection } from './section-checks.ts';
import { entitiesSection } from './section-entities.ts';
import { reviewsAndNotesSection, timelineSection } from './section-history.ts';
import { summarySection } from './section-summary.ts';
import { PdfWriter } from './writer.ts';

/** The case report as PDF bytes, every time written in `timezone`. */
export async function renderCaseReport(
  data: ReportData,
  timezone: string,
  generatedAt: Date,
): Promise<Buffer> {
  const { PDFDocument } = await loadPdfLib();
  const doc = await PDFDocument.create();
  doc.setTitle(`Case report: ${data.kase.name}`);
  doc.setProducer('vericase');
  doc.setCreationDate(generatedAt);
  const time = timeFormatter(timezone);
  const w = await PdfWriter.create(doc);
  caseSection(w, data, time);
  summarySection(w, data, time);
  entitiesSection(w, data);
  checksSection(w, data, time);
  reviewsAndNotesSection(w, data, time);
  timelineSection(w, data, time);
  w.finish(`Case report: ${isolate(data.kase.name)}`, `Generated ${time(generatedAt)} (${timezone})`);
  return Buffer.from(await doc.save());
}
