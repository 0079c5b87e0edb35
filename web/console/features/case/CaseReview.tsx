/**
 * The case review: approve, reject or close the case with a comment (POST /v1/cases/{id}/reviews).
 * The server decides what is allowed; the comment the workspace makes mandatory (its settings, read
 * when the dialog opens) is marked required in the form, so that it is said before anything is sent.
 * The reviewer picks the decision (none is preselected), and approving a case that has rejected
 * checks, or checks not decided yet, says so before it is recorded. The review is sent on the
 * version of the case the page shows (If-Match): a case someone reviewed or changed meanwhile
 * records nothing, is read again and said so (two tabs recorded contradictory reviews, the later
 * one never told: console walk).
 */
import { type FormEvent, useEffect, useState } from 'react';
import { api, CHANGED_MEANWHILE } from '../../api/client.ts';
import { Dialog, DialogActions } from './Dialog.tsx';
import { useCaseT } from './i18n.ts';
import { useCaseWrite } from './use-case-write.ts';

type Decision = 'approved' | 'rejected' | 'closed';

export function CaseReviewButton(props: {
  caseId: string;
  status: string;
  /** The case's rejected checks (of relevant entities): approving them all the same is said aloud. */
  rejectedChecks: number;
  /** Its checks not decided yet (to review, waiting for data, processing): they stay so. */
  undecidedChecks: number;
  /** The version of the case the page shows (its ETag): the review is a decision on it. */
  etag: string | null;
  onReviewed: () => void;
  /** The case changed since the page read it: read it again. */
  onChangedMeanwhile: () => void;
}) {
  const t = useCaseT();
  const [open, setOpen] = useState(false);
  // no decision is chosen for the reviewer: a compliance decision is never one Enter away
  const [decision, setDecision] = useState<Decision | null>(null);
  const [comment, setComment] = useState('');
  const write = useCaseWrite();
  const [commentRequired, setCommentRequired] = useState(false);
  const [blankComment, setBlankComment] = useState(false);
  const [changedMeanwhile, setChangedMeanwhile] = useState(false);
  useEffect(() => {
    if (!open) return;
    let live = true;
    // a failure leaves the comment optional here: the server still refuses a missing one
    api.GET('/v1/workspace/settings').then(
      (res) => {
        if (live && res.data) setCommentRequired(res.data.case_review.comment_mandatory);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [open]);

  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    // `required` lets spaces through: said here, in the console's language, not by the server
    if (commentRequired && !comment.trim()) {
      setBlankComment(true);
      return;
    }
    setBlankComment(false);
    setChangedMeanwhile(false);
    let stale = false;
    const sent = await write.send(async () => {
      const res = await api.POST('/v1/cases/{id}/reviews', {
        params: { path: { id: props.caseId }, header: props.etag ? { 'If-Match': props.etag } : {} },
        body: { status: decision as Decision, ...(comment.trim() ? { comment: comment.trim() } : {}) },
      });
      // said in the console's words below, not as the server's refusal
      stale = res.response.status === CHANGED_MEANWHILE;
      return stale ? {} : res;
    });
    if (stale) {
      // nothing was recorded: the page reads the case again, and the decision is the reviewer's to
      // make again on what it now shows (their comment stays)
      setChangedMeanwhile(true);
      setDecision(null);
      props.onChangedMeanwhile();
      return;
    }
    if (!sent) return;
    setOpen(false);
    setComment('');
    setDecision(null);
    props.onReviewed();
  };

  return (
    <>
      <button
        type="button"
        className="case-button is-primary"
        onClick={() => {
          setChangedMeanwhile(false);
          setOpen(true);
        }}
        data-testid="case-review-open"
      >
        {t('case.review.open')}
      </button>
      <Dialog title={t('case.review.title')} open={open} onClose={() => setOpen(false)}>
        <form onSubmit={submit} className="case-form">
          {changedMeanwhile ? (
            <p className="case-warning" role="alert" data-testid="case-review-changed">
              {t('case.review.changedMeanwhile')}
            </p>
          ) : null}
          <fieldset>
            <legend>{t('case.review.decision')}</legend>
            {(['approved', 'rejected', 'closed'] as const).map((d) => (
              <label key={d} className="case-radio">
                <input
                  type="radio"
                  name="decision"
                  value={d}
                  required
                  checked={decision === d}
                  onChange={() => setDecision(d)}
                />
                {t(`case.review.${d}`)}
              </label>
            ))}
          </fieldset>
          {decision === 'approved' && props.rejectedChecks > 0 ? (
            <p className="case-warning" role="status" data-testid="case-review-warning">
              {t('case.review.rejectedWarning', { n: props.rejectedChecks })}
            </p>
          ) : null}
          {decision === 'approved' && props.undecidedChecks > 0 ? (
            <p className="case-warning" role="status" data-testid="case-review-undecided">
              {t('case.review.undecidedWarning', { n: props.undecidedChecks })}
            </p>
          ) : null}
          <label>
            {commentRequired ? t('case.review.commentRequired') : t('case.review.comment')}
            <textarea
              value={comment}
              onChange={(e) => setComment(e.target.value)}
              rows={4}
              maxLength={10000}
              required={commentRequired}
            />
          </label>
          <DialogActions
            error={blankComment ? t('case.review.commentMissing') : write.error}
            busy={write.busy}
            cancelLabel={t('case.cancel')}
            submitLabel={t('case.review.submit')}
            onCancel={() => setOpen(false)}
          />
        </form>
      </Dialog>
    </>
  );
}
