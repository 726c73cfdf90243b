import type { RuleResult } from '../api/types.js'
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
            <td>{result.message ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
