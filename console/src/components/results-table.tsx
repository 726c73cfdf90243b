import type { RuleResult } from '../api/types.js'
import { follow } from '../router.js'
import { TableHead } from './table-head.js'

export function ResultsTable(props: { results: RuleResult[] }) {
  if (props.results.length === 0) return <p>No rule failed.</p>
  return (
    <table>
      <TableHead columns={['Ruleset', 'Rule', 'Status', 'Severity', 'Message']} />
      <tbody>
        {props.results.map((result, index) => (
          <tr key={`${result.ruleset}/${result.rule}/${index}`}>
            <td>{result.ruleset}</td>
            <td>{result.rule}</td>
            <td>
              <span class={`status status-${result.status}`}>{result.status}</span>
            </td>
            <td>{result.severity}</td>
            <td>
              {result.message ?? ''}
              {result.exception === undefined ? null : (
                <>
                  {' '}
                  (<ExceptionLink name={result.exception} />)
                </>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** A link to the exception's own screen. */
export function ExceptionLink(props: { name: string }) {
  const path = `/exceptions/${encodeURIComponent(props.name)}`
  return (
    <a class="exception-link" href={`/ui${path}`} onClick={(event) => follow(event, path)}>
      exception {props.name}
    </a>
  )
}
