/**
 * A settings list's table once its page has loaded: a row per item, under column headings; with
 * `none`, an empty page says so instead of showing a table with no rows. Nothing until the page is
 * there (LoadState says why).
 */
import type { ReactNode } from 'react';
import { TableHead } from '../../shared/TableHead.tsx';

export function SettingsTable<T>(props: {
  rows: T[] | undefined;
  /** The headings; a false one is left out (the actions column, for admins only). */
  columns: (string | false)[];
  none?: string;
  row: (item: T) => ReactNode;
}) {
  if (!props.rows) return null;
  if (props.none !== undefined && props.rows.length === 0)
    return <p className="settings-muted">{props.none}</p>;
  return (
    <table className="settings-table">
      <TableHead columns={props.columns} />
      <tbody>{props.rows.map(props.row)}</tbody>
    </table>
  );
}
