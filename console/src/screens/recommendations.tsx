import type { ApiClient } from '../api/api-client.js'
import type { Recommendation } from '../api/types.js'
import { ErrorBox } from '../components/error-box.js'
import { useLoad } from '../components/use-api.js'
import { TableHead } from '../components/table-head.js'

/** What the definitions and the last week of audits suggest, as GET /api/recommendations words it. */
export function Recommendations(props: { api: ApiClient }) {
  const recommendations = useLoad(async () => (await props.api.request<{ recommendations: Recommendation[] }>('/api/recommendations', { query: { days: 7 } })).recommendations, 'recommendations')
  return (
    <section aria-labelledby="recommendations-title">
      <h1 id="recommendations-title">Recommendations</h1>
      <ErrorBox error={recommendations.error} />
      <table>
        <TableHead columns={['Kind', 'About', 'Recommendation']} />
        <tbody>
          {(recommendations.value ?? []).map((entry) => (
            <tr key={entry.id}>
              <td>
                <span class="tag">{entry.type}</span>
              </td>
              <td>
                {entry.target.kind} {entry.target.name}
                {entry.target.ruleset ? ` (${entry.target.ruleset})` : ''}
              </td>
              <td>{entry.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {recommendations.value?.length === 0 ? <p>Nothing to recommend.</p> : null}
    </section>
  )
}
