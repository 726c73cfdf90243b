import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.js'
import type { PolicyAudit, PolicyDefinition, Recommendation, TimeseriesAnswer } from '../api/types.js'
import { ErrorBox } from '../components/error-box.js'
import { Sparkline } from '../components/sparkline.js'
import { TableHead } from '../components/table-head.js'
import { useLoad } from '../components/use-api.js'
import { follow } from '../router.js'

interface PolicyFigures {
  policy: PolicyDefinition
  passed: number
  failed: number
  trend: number[]
}

/** The ranges the overview offers, with the bucket each one's trend is drawn in. */
const RANGES = { '24 hours': { hours: 24, interval: '1h' }, '7 days': { hours: 24 * 7, interval: '6h' }, '30 days': { hours: 24 * 30, interval: '1d' } } as const
type Range = keyof typeof RANGES

/** Each policy with its pass/fail counts and trend over the chosen range, recent failures, open recommendations. */
export function Overview(props: { api: ApiClient }) {
  const { api } = props
  const [range, setRange] = useState<Range>('24 hours')
  const figures = useLoad(async () => {
    const { policies } = await api.request<{ policies: PolicyDefinition[] }>('/api/policies')
    const end = new Date()
    const start = new Date(end.getTime() - RANGES[range].hours * 3_600_000)
    return Promise.all(
      policies.map(async (policy): Promise<PolicyFigures> => {
        const series = await api.request<TimeseriesAnswer>(`/api/timeseries/policies/${encodeURIComponent(policy.name)}`, {
          query: { startTimestamp: start.toISOString(), endTimestamp: end.toISOString(), interval: RANGES[range].interval },
        })
        return {
          policy,
          passed: series.buckets.reduce((sum, bucket) => sum + bucket.passed, 0),
          failed: series.buckets.reduce((sum, bucket) => sum + bucket.failed, 0),
          trend: series.buckets.map((bucket) => bucket.failed),
        }
      }),
    )
  }, `figures:${range}`)
  const denials = useLoad(
    async () => (await api.request<{ policyAudits: PolicyAudit[] }>('/api/audits/policies', { query: { policy_name: '*', pageSize: 50 } })).policyAudits.filter((audit) => !audit.output.passed).slice(0, 8),
    'denials',
  )
  const recommendations = useLoad(async () => (await api.request<{ recommendations: Recommendation[] }>('/api/recommendations')).recommendations, 'recommendations')
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
      <label class="inline">
        Range{' '}
        <select id="overview-range" value={range} onChange={(event) => setRange((event.target as HTMLSelectElement).value as Range)}>
          {Object.keys(RANGES).map((entry) => (
            <option key={entry}>{entry}</option>
          ))}
        </select>
      </label>
      <h2>Policies, last {range}</h2>
      <ErrorBox error={figures.error} />
      <table class="figures">
        <TableHead columns={['Policy', 'Action', 'Passed', 'Failed', `Failures per ${RANGES[range].interval}`]} />
        <tbody>
          {(figures.value ?? []).map((entry) => (
            <tr key={entry.policy.name}>
              <td>
                <a href={`/ui/timeseries?policy=${encodeURIComponent(entry.policy.name)}`} onClick={(event) => follow(event, `/timeseries?policy=${encodeURIComponent(entry.policy.name)}`)}>
                  {entry.policy.name}
                </a>
              </td>
              <td>{entry.policy.action ?? 'Audit'}</td>
              <td class="number">{entry.passed}</td>
              <td class="number">{entry.failed}</td>
              <td>
                <Sparkline values={entry.trend} label={`failures per ${RANGES[range].interval} of ${entry.policy.name}`} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {figures.value?.length === 0 ? <p>No policy yet.</p> : null}
      <h2>Recent failures</h2>
      <ErrorBox error={denials.error} />
      <ul class="plain">
        {(denials.value ?? []).map((audit) => (
          <li key={`${audit.requestId}-${audit.policyName}`}>
            <a href={`/ui/audits/${encodeURIComponent(audit.requestId)}`} onClick={(event) => follow(event, `/audits/${encodeURIComponent(audit.requestId)}`)}>
              {audit.policyName}
            </a>{' '}
            <time dateTime={audit.updatedAt}>{new Date(audit.updatedAt).toLocaleString()}</time> — {audit.output.results.map((result) => result.rule).join(', ')}
          </li>
        ))}
      </ul>
      {denials.value?.length === 0 ? <p>No failure among the latest audits.</p> : null}
      <h2>Open recommendations</h2>
      <ErrorBox error={recommendations.error} />
      <ul class="plain">
        {(recommendations.value ?? []).slice(0, 8).map((entry) => (
          <li key={entry.id}>
            <span class="tag">{entry.type}</span> {entry.message}
          </li>
        ))}
      </ul>
    </section>
  )
}
