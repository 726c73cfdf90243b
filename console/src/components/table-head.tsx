/** A column heading: its text, or `{ hidden }` for a column (such as row actions) named for screen readers only. */
export type Column = string | { hidden: string }

/** The header row of a table, each heading a column header for assistive technology. */
export function TableHead(props: { columns: readonly Column[] }) {
  return (
    <thead>
      <tr>
        {props.columns.map((column) =>
          typeof column === 'string' ? (
            <th scope="col" key={column}>
              {column}
            </th>
          ) : (
            <th scope="col" key={column.hidden}>
              <span class="visually-hidden">{column.hidden}</span>
            </th>
          ),
        )}
      </tr>
    </thead>
  )
}
