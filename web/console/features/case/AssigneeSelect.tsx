/**
 * Who a case is assigned to, chosen among the workspace's active reviewers and admins (PATCH
 * /v1/cases/{id} { assignee_id }; a viewer cannot act on it); "Unassigned" clears it. A viewer reads the name only. A suspended user still
 * assigned stays listed, so the choice shown is the case's.
 */
import { useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client.ts';
import { workspaceUsers } from '../../api/users.ts';
import { useCaseT } from './i18n.ts';
import { type NestedUser, userName } from './types.ts';

type Option = { id: string; name: string };

export function AssigneeSelect(props: {
  caseId: string;
  assignee: NestedUser | null | undefined;
  assigneeId: string | null;
  canWrite: boolean;
  onChanged: () => void;
}) {
  const t = useCaseT();
  const [users, setUsers] = useState<Option[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!props.canWrite) return;
    // a viewer cannot act on a case: assigned one, nobody would work on it (console walk)
    workspaceUsers(false).then(
      (all) => setUsers(all.filter((u) => u.role !== 'viewer')),
      (e: Error) => setError(e.message),
    );
  }, [props.canWrite]);
  const shown = userName(props.assignee) ?? t('case.unassigned');
  if (!props.canWrite) return <>{shown}</>;
  const options = [...(users ?? [])];
  if (props.assigneeId && !options.some((o) => o.id === props.assigneeId))
    options.push({ id: props.assigneeId, name: userName(props.assignee) ?? props.assigneeId });
  const choose = async (id: string) => {
    setBusy(true);
    setError(null);
    try {
      unwrap(
        await api.PATCH('/v1/cases/{id}', {
          params: { path: { id: props.caseId } },
          body: { assignee_id: id || null },
        }),
      );
      props.onChanged();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <select
        aria-label={t('case.assignee')}
        value={props.assigneeId ?? ''}
        disabled={busy || users === null}
        onChange={(e) => void choose(e.target.value)}
      >
        <option value="">{t('case.unassigned')}</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
      {error ? (
        <span role="alert" className="case-error">
          {' '}
          {error}
        </span>
      ) : null}
    </>
  );
}
