/**
 * The case's activity timeline (GET /v1/activities?case_id=…, newest first, 50 a page with "show
 * more"): when, who (a console user by name, else the API, the system or the contact), what (the
 * activity type `{author}__{verb}__{subject}` read as a sentence), and on which entity or check; an
 * AML hit decision names the hit(s) it was about (aml-hit-names.ts).
 */
import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api/client.ts';
import { shownTotal } from '../../api/totals.ts';
import { useWorkspaceUsers } from '../../api/users.ts';
import { decidedHitIds, useAmlHitNames } from './aml-hit-names.ts';
import { formatDateTime, problemMessage, useCaseT } from './i18n.ts';
import { type ActivityOut, type CaseEntity, userName } from './types.ts';

const PAGE = 50;

/** French contractions where a verb ending in "de" or "à" meets "le"/"les"/"un(e)": du, au, des, aux, d'un. */
export function contract(text: string): string {
  return text
    .replace(/\bde le\b/g, 'du')
    .replace(/(^|\s)à le\b/g, '$1au')
    .replace(/\bde les\b/g, 'des')
    .replace(/(^|\s)à les\b/g, '$1aux')
    .replace(/\bde (une?)\b/g, "d'$1");
}

export function ActivityTimeline(props: { caseId: string; entities: CaseEntity[]; version: number }) {
  const t = useCaseT();
  const [items, setItems] = useState<ActivityOut[]>([]);
  const [count, setCount] = useState<number | null>(null);
  // past 1,000 activities the total is the database's estimate: whether more exist is then told by
  // the last page (a full page may have a next one), not by comparing with an estimate
  const [estimated, setEstimated] = useState(false);
  const [lastPageFull, setLastPageFull] = useState(false);
  const [page, setPage] = useState(1);
  const [error, setError] = useState<string | null>(null);
  // to name whom an assignee activity gave the case to
  const users = useWorkspaceUsers();
  const hitNames = useAmlHitNames(items);

  const fetchPage = useCallback(
    async (p: number) => {
      const res = await api.GET('/v1/activities', {
        params: { query: { case_id: props.caseId, sort: 'created_at.desc', limit: PAGE, page: p } as never },
      });
      if (res.error || !res.data) {
        setError(problemMessage(res.error, t));
        return;
      }
      setError(null);
      setCount(res.data.pagination.count);
      setEstimated(res.data.pagination.count_estimated === true);
      setLastPageFull(res.data.data.length === PAGE);
      setPage(p);
      setItems((prev) => (p === 1 ? res.data.data : [...prev, ...res.data.data]));
    },
    [props.caseId, t],
  );

  useEffect(() => {
    void props.version;
    void fetchPage(1);
  }, [fetchPage, props.version]);

  // a number when there is more to show: what the button says is shown in all
  const moreOf = count !== null && (estimated ? lastPageFull : items.length < count) ? count : null;
  const nameOf = (id: string | null) => (id ? (props.entities.find((e) => e.id === id)?.name ?? null) : null);
  // the client by name: a portal contact is one of the case's people (author_id is the individual)
  const contactName = (a: ActivityOut) => {
    if (a.author_type !== 'contact') return null;
    const name = nameOf(a.author_id);
    return name ? t('case.actor.contactNamed', { name }) : null;
  };
  // what the change was, where the activity records it: the tags put on (+) and taken off (−), and
  // whom the case is assigned to now
  const changeDetails = (a: ActivityOut): string[] =>
    (a.changes ?? []).flatMap((c) => {
      if (c.name === 'tags') return [c.next !== null ? `+${c.next}` : `−${c.previous}`];
      if (c.name !== 'assignee_id') return [];
      if (c.next === null) return [t('case.activity.unassigned')];
      const user = users?.find((u) => u.id === c.next);
      return user ? [t('case.activity.assignedTo', { name: user.name })] : [];
    });
  // which hits a hit decision was about: their listed names once the screening is read ("; " between
  // them, as a listed name may hold a comma: "LOGAN MOREY, Elvis"), else how many
  const hitDetails = (a: ActivityOut): string[] => {
    const ids = decidedHitIds(a);
    if (!ids.length) return [];
    const names = ids.map((id) => hitNames.get(id));
    if (names.every(Boolean)) return [[...new Set(names as string[])].join('; ')];
    return [t('case.activity.hits', { n: ids.length })];
  };
  // what a client did, said as what they did: a signature's decision is theirs (the reference
  // files it as the system's approval or rejection), a started check is files they sent
  const clientSentence = (a: ActivityOut, verb: string | undefined) => {
    if (a.author_type !== 'contact') return null;
    if (a.context.check?.type === 'electronic_signature' && verb === 'approved')
      return t('case.client.signed');
    if (a.context.check?.type === 'electronic_signature' && verb === 'rejected')
      return t('case.client.declined');
    if (verb === 'started') return t('case.client.sent');
    return null;
  };

  return (
    <div className="case-activity" data-testid="case-activity">
      {error ? (
        <p role="alert" className="case-error">
          {error}
        </p>
      ) : null}
      {count === 0 ? <p className="case-muted">{t('case.activity.none')}</p> : null}
      <ol className="case-timeline">
        {items.map((a) => {
          const [, verb, ...subjectParts] = a.type.split('__');
          const subject = subjectParts.join('__');
          const who = userName(a.user) ?? contactName(a) ?? t(`case.actor.${a.author_type}`);
          const entity = nameOf(a.company_id ?? a.individual_id);
          const ctx = a.context;
          const details = [
            ctx.check ? t(`case.checkType.${ctx.check.type}`) : null,
            verb === 'updated_status' && ctx.case?.status ? t(`case.status.${ctx.case.status}`) : null,
            ctx.case_review ? t(`case.status.${ctx.case_review.status}`) : null,
            ctx.risk ? t(`case.risk.${ctx.risk.level}`) : null,
            // every activity of a case with a template carries it (the case as it was): named only
            // where it is what the activity is about (a template run, the template changed), not
            // on each tag or note ("added tags to the case · Standard KYB · +PEP")
            verb === 'updated_template' || subject === 'template' ? (ctx.template?.name ?? null) : null,
            ...changeDetails(a),
            ...hitDetails(a),
          ].filter(Boolean);
          const comment = ctx.case_review?.comment ?? ctx.risk?.comment ?? null;
          return (
            <li key={a.id} className={`case-event is-${a.author_type}`}>
              <time dateTime={a.created_at}>{formatDateTime(a.created_at)}</time>
              <div>
                <p>
                  <strong>{who}</strong>{' '}
                  {clientSentence(a, verb) ??
                    contract(`${t(`case.verb.${verb}`)} ${t(`case.subject.${subject}`)}`)}
                  {entity ? <span> · {entity}</span> : null}
                  {details.length ? <span className="case-muted"> · {details.join(' · ')}</span> : null}
                </p>
                {comment ? <blockquote>{comment}</blockquote> : null}
              </div>
            </li>
          );
        })}
      </ol>
      {moreOf !== null ? (
        <button type="button" className="case-button" onClick={() => void fetchPage(page + 1)}>
          {t('case.activity.more', { shown: items.length, count: shownTotal(moreOf, estimated) })}
        </button>
      ) : null}
    </div>
  );
}
