/**
 * The table of the cases and queue lists, with its states: the load's failure (announced),
 * "Loading…" until the first page is there, the list's own empty note, else a row per item under
 * the column headings. A later page's load keeps the rows shown.
 */
import type { ReactNode } from 'react';
import { TableHead } from '../../shared/TableHead.tsx';
import { useT } from '../../shell/i18n.tsx';

export function ListTable<T>(props: {
  error: string | null;
  rows: T[] | undefined;
  empty: string;
  columns: string[];
  row: (item: T) => ReactNode;
}) {
  const t = useT();
  if (props.error)
    return (
      <p className="error" role="alert">
        {t('common.error', { message: props.error })}
      </p>
    );
  if (!props.rows) return <p className="muted">{t('common.loading')}</p>;
  if (props.rows.length === 0) return <p className="muted">{props.empty}</p>;
  return (
    // on a narrow screen the table scrolls within its box: the page itself never gets wider
    <div className="grid-scroll">
      <table className="grid">
        <TableHead columns={props.columns} />
        <tbody>{props.rows.map(props.row)}</tbody>
      </table>
    </div>
  );
}
