import { useT } from '../../shell/i18n.tsx';

export function StatusBadge({ status }: { status: string }) {
  const t = useT();
  const known = ['draft', 'open', 'approved', 'rejected', 'closed'].includes(status);
  return (
    <span className={`status status-${status}`}>{known ? t(`status.${status as 'open'}`) : status}</span>
  );
}
