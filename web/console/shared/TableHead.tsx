/**
 * A list table's column headings (scope="col", so a screen reader names each cell's column), for the
 * cases, queue and settings tables. A false heading is left out: a column shown only to some (the
 * settings actions, for admins).
 */
export function TableHead({ columns }: { columns: (string | false)[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) =>
          // a table's headings differ from one another: each is its own key
          c === false ? null : (
            <th key={c} scope="col">
              {c}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}
