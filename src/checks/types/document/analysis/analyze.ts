import type { AnalysisInput, AnalysisOutcome } from './index.ts';

/** First version: nothing is read yet, every document goes to review. */
export async function analyzeDocument(_input: AnalysisInput): Promise<AnalysisOutcome> {
  return {
    verdict: 'need_review',
    unreadable: true,
    comment: 'Document analysis is not implemented yet.',
    information: { expiration_date: null, document_analysis: null },
    detailedResults: { document_analysis: null },
  };
}
