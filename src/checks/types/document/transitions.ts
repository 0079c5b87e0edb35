import type { Transition } from '../../check-type.ts';
import { FORCE_REVIEW_TRANSITION } from '../../common-transitions.ts';

/**
 * document rows, as data. The spec does not show them; they follow id_document's (the common table
 * adds review and expiry). Triggers: `create`, `add_files`, `analysis_result` (the job's outcome),
 * `force_review`.
 */
export const DOCUMENT_TRANSITIONS: readonly Transition[] = [
  { from: null, trigger: 'create', to: 'in_progress', condition: 'no files', also: 'waits for add_files' },
  {
    from: null,
    trigger: 'create',
    to: 'processing',
    condition: '1 to 10 files given at creation',
    also: 'the analysis job is queued',
  },
  {
    from: 'in_progress',
    trigger: 'add_files',
    to: 'processing',
    condition: '1 to 10 files',
    also: 'the analysis job is queued (same start: no second Check.Started)',
  },
  {
    from: 'need_review',
    trigger: 'add_files',
    to: 'processing',
    condition: 'the attempt holds at most 10 files with the new ones',
    also: 'the files join the current attempt and the whole attempt is analysed again',
  },
  {
    from: 'rejected',
    trigger: 'add_files',
    to: 'processing',
    also: 'new attempt opened, previous attempt moved to check history, Check.Started emitted again, check id unchanged',
  },
  {
    from: 'expired',
    trigger: 'add_files',
    to: 'processing',
    also: 'new attempt opened, previous attempt moved to check history, Check.Started emitted again, check id unchanged',
  },
  {
    from: 'processing',
    trigger: 'analysis_result',
    to: 'approved',
    condition: 'analysis (or sandbox_outcome) approved and automatic_approval true',
    also: 'reviewer recorded as system, comment saying why',
  },
  {
    from: 'processing',
    trigger: 'analysis_result',
    to: 'rejected',
    condition: 'analysis (or sandbox_outcome) rejected and automatic_rejection true',
    also: 'reviewer recorded as system, the failed criteria as comment',
  },
  {
    from: 'processing',
    trigger: 'analysis_result',
    to: 'need_review',
    condition:
      'analysis undecided or unreadable, the matching automatic setting false, or the analysis failed (data.result error)',
    also: 'the reason in data.review.comment',
  },
  FORCE_REVIEW_TRANSITION,
];
