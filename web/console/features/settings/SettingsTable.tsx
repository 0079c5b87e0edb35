/**
 * A settings list's table once its page has loaded: a row per item, under column headings; with
 * `none`, an empty page says so instead of showing a table with no rows. Nothing until the page is
 * there (LoadState says why).
 *
 * On a phone each row becomes a card, each cell under its column's name (settings.css): the cells
 * get that name as `data-label` here, after each render, so the pages' row renderers stay plain
 * `<td>`s. A cell spanning several columns (a row's detail) has no single name and gets none.
 */
import { type ReactNode, useLayoutEffect, useRef } from 'react';
import { TableHead } from '../../shared/TableHead.tsx';

export function SettingsTable<T>(props: {
  rows: T[] | undefined;
  /** The headings; a false one is left out (the actions column, for admins only). */
  columns: (string | false)[];
  none?: string;
  row: (item: T) => ReactNode;
}) {
  const table = useRef<HTMLTableElement>(null);
  const headings = props.columns.filter((c): c is string => c !== false);
  useLayoutEffect(() => {
    if (table.current) labelCells(table.current, headings);
  });
  if (!props.rows) return null;
  if (props.none !== undefined && props.rows.length === 0)
    return <p className="settings-muted">{props.none}</p>;
  return (
    <table className="settings-table" ref={table}>
      <TableHead columns={props.columns} />
      <tbody>{props.rows.map(props.row)}</tbody>
    </table>
  );
}

function labelCells(table: HTMLTableElement, headings: string[]): void {
  for (const row of table.tBodies[0]?.rows ?? []) {
    let column = 0;
    for (const cell of row.cells) {
      if (cell.colSpan === 1 && headings[column]) cell.dataset.label = headings[column];
      else delete cell.dataset.label;
      column += cell.colSpan;
    }
  }
}
