import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.js'
import type { TimeseriesAnswer } from '../api/types.js'
import { BucketChart } from '../components/bucket-chart.js'
import { ErrorBox } from '../components/error-box.js'
import { TableHead } from '../components/table-head.js'
import { useLoad } from '../components/use-api.js'
import { targetPath, useTargets } from '../components/use-targets.js'

const RANGES = { '24 hours': 24, '7 days': 24 * 7, '30 days': 24 * 30 } as const
const INTERVALS = ['15m', '1h', '6h', '1d'] as const

/** A policy's or ruleset's evaluations over time (GET /api/timeseries/...), and its most failing rules. */
export function Timeseries(props: { api: ApiClient; initial: string | undefined }) {
  const { api } = props
  const targets = useTargets(api)
  const [target, setTarget] = useState(props.initial === undefined ? '' : `policies/${props.initial}`)
  const [range, setRange] = useState<keyof typeof RANGES>('24 hours')
  const [interval, setInterval] = useState<(typeof INTERVALS)[number]>('1h')
  const chosen = target || targets.value?.[0] || ''
  const series = useLoad(async () => {
    if (chosen === '') return undefined
    const end = new Date()
    const start = new Date(end.getTime() - RANGES[range] * 3_600_000)
    return api.request<TimeseriesAnswer>(`/api/timeseries/${targetPath(chosen)}`, { query: { startTimestamp: start.toISOString(), endTimestamp: end.toISOString(), interval } })
  }, `${chosen}|${range}|${interval}`)
  return (
    <section aria-labelledby="timeseries-title">
      <h1 id="timeseries-title">Timeseries</h1>
      <ErrorBox error={targets.error} />
      <form class="filters" onSubmit={(event) => event.preventDefault()}>
        <label>
          Policy or ruleset
          <select id="series-target" value={chosen} onChange={(event) => setTarget((event.target as HTMLSelectElement).value)}>
            {(targets.value ?? []).map((entry) => (
              <option key={entry} value={entry}>
                {entry.replace('/', ': ')}
              </option>
            ))}
          </select>
        </label>
        <label>
          Range
          <select id="series-range" value={range} onChange={(event) => setRange((event.target as HTMLSelectElement).value as keyof typeof RANGES)}>
            {Object.keys(RANGES).map((entry) => (
              <option key={entry}>{entry}</option>
            ))}
          </select>
        </label>
        <label>
          Interval
          <select id="series-interval" value={interval} onChange={(event) => setInterval((event.target as HTMLSelectElement).value as (typeof INTERVALS)[number])}>
            {INTERVALS.map((entry) => (
              <option key={entry}>{entry}</option>
            ))}
          </select>
        </label>
      </form>
      <ErrorBox error={series.error} />
      {series.value ? <BucketChart series={series.value} label={chosen} /> : null}
      <h2>Most failing rules</h2>
      <table class="top-rules">
        <TableHead columns={['Ruleset', 'Rule', 'Failures']} />
        <tbody>
          {(series.value?.topFailingRules ?? []).map((rule) => (
            <tr key={`${rule.ruleset}/${rule.rule}`}>
              <td>{rule.ruleset}</td>
              <td>{rule.rule}</td>
              <td class="number">{rule.failures}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {series.value?.topFailingRules.length === 0 ? <p>No rule failed in this range.</p> : null}
    </section>
  )
}
