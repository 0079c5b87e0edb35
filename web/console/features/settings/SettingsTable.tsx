/**
 * A settings list's table once its page has loaded: a row per item, under column headings; with
 * `none`, an empty page says so instead of showing a table with no rows. Nothing until the page is
 * there (LoadState says why).
 */
import type { ReactNode } from 'react';

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
      <thead>
        <tr>
          {props.columns.map((c) =>
            // a table's headings differ from one another: each is its own key
            c === false ? null : (
              <th key={c} scope="col">
                {c}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>{props.rows.map(props.row)}</tbody>
    </table>
  );
}
