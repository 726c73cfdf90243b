import { useState } from 'preact/hooks'
import { ApiError, type ApiClient } from '../api/api-client.js'
import type { AuditRemediations, PolicyAudit, RuleResult } from '../api/types.js'
import { ErrorBox } from '../components/error-box.js'
import { ExceptionLink, ResultsTable } from '../components/results-table.js'
import { useLoad } from '../components/use-api.js'
import { follow } from '../router.js'
import { TableHead } from '../components/table-head.js'

const PAGE_SIZE = 25

/** An audit of either kind as the list shows it. */
interface ListedAudit {
  name: string
  requestId: string
  output: { passed: boolean; results: RuleResult[]; disabled?: true; disabledReason?: string }
  updatedBy: string
  updatedAt: string
}

/** Policy or ruleset audits by name (a glob), time range and outcome, newest first, page by page. */
export function Audits(props: { api: ApiClient }) {
  const { api } = props
  const [filter, setFilter] = useState({ kind: 'policies' as 'policies' | 'rulesets', name: '*', start: '', end: '', outcome: 'all', page: 1 })
  const [draft, setDraft] = useState(filter)
  const audits = useLoad(async (): Promise<ListedAudit[]> => {
    const answer = await api.request<{ policyAudits?: (PolicyAudit & { policyName: string })[]; rulesetAudits?: (Omit<PolicyAudit, 'policyName'> & { rulesetName: string })[] }>(`/api/audits/${filter.kind}`, {
          query: {
            [filter.kind === 'policies' ? 'policy_name' : 'ruleset_name']: filter.name,
            startTimestamp: isoOf(filter.start),
            endTimestamp: isoOf(filter.end),
            page: filter.page,
            pageSize: PAGE_SIZE,
            passed: filter.outcome === 'all' ? undefined : filter.outcome === 'passed',
          },
        })
    return [...(answer.policyAudits ?? []).map((audit) => ({ ...audit, name: audit.policyName })), ...(answer.rulesetAudits ?? []).map((audit) => ({ ...audit, name: audit.rulesetName }))]
  }, JSON.stringify(filter))
  const shown = audits.value ?? []
  return (
    <section aria-labelledby="audits-title">
      <h1 id="audits-title">Audits</h1>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault()
          setFilter({ ...draft, page: 1 })
        }}
      >
        <label>
          Audits of
          <select value={draft.kind} onChange={(event) => {
            const kind = (event.target as HTMLSelectElement).value as 'policies' | 'rulesets'
            setDraft((current) => ({ ...current, kind }))
          }}>
            <option value="policies">policies</option>
            <option value="rulesets">rulesets</option>
          </select>
        </label>
        <label>
          Name (glob)
          <input value={draft.name} onInput={(event) => {
            const name = (event.target as HTMLInputElement).value
            setDraft((current) => ({ ...current, name }))
          }} />
        </label>
        <label>
          From
          <input type="datetime-local" value={draft.start} onInput={(event) => {
            const start = (event.target as HTMLInputElement).value
            setDraft((current) => ({ ...current, start }))
          }} />
        </label>
        <label>
          To
          <input type="datetime-local" value={draft.end} onInput={(event) => {
            const end = (event.target as HTMLInputElement).value
            setDraft((current) => ({ ...current, end }))
          }} />
        </label>
        <label>
          Outcome
          <select id="audit-outcome" value={draft.outcome} onChange={(event) => {
            const outcome = (event.target as HTMLSelectElement).value
            setDraft((current) => ({ ...current, outcome }))
          }}>
            <option value="all">all</option>
            <option value="passed">passed</option>
            <option value="failed">failed</option>
          </select>
        </label>
        <button type="submit">Filter</button>
      </form>
      <ErrorBox error={audits.error} />
      <table>
        <TableHead columns={['When', filter.kind === 'policies' ? 'Policy' : 'Ruleset', 'Outcome', 'Failed rules', 'By']} />
        <tbody>
          {shown.map((audit) => (
            <tr key={`${audit.requestId}/${audit.name}`}>
              <td>
                <a href={`/ui/audits/${encodeURIComponent(audit.requestId)}`} onClick={(event) => follow(event, `/audits/${encodeURIComponent(audit.requestId)}`)}>
                  <time dateTime={audit.updatedAt}>{new Date(audit.updatedAt).toLocaleString()}</time>
                </a>
              </td>
              <td>{audit.name}</td>
              <td>
                <span class={`status status-${audit.output.passed ? 'pass' : 'fail'}`}>{audit.output.passed ? 'passed' : 'failed'}</span>
              </td>
              <td>
                {violations(audit.output.results).join(', ')}
                {exceptionsOf(audit.output.results).map((name) => (
                  <span key={name} class="tag">
                    allowed by <ExceptionLink name={name} />
                  </span>
                ))}
              </td>
              <td>{audit.updatedBy}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <nav class="pager" aria-label="pages">
        <button type="button" disabled={filter.page === 1} onClick={() => setFilter({ ...filter, page: filter.page - 1 })}>
          Newer
        </button>
        <span>page {filter.page}</span>
        <button type="button" disabled={(audits.value?.length ?? 0) < PAGE_SIZE} onClick={() => setFilter({ ...filter, page: filter.page + 1 })}>
          Older
        </button>
      </nav>
    </section>
  )
}

/** One evaluation: the document, every policy's results, and what to change for each failure. */
export function AuditDetail(props: { api: ApiClient; requestId: string }) {
  const { api, requestId } = props
  // A policy evaluation has a policy audit; a ruleset evaluation only ruleset audits.
  const audit = useLoad(async (): Promise<ListedAudit & { input: string }> => {
    try {
      const { policyAudit } = await api.request<{ policyAudit: PolicyAudit }>(`/api/audits/policies/uuid/${encodeURIComponent(requestId)}`)
      return { ...policyAudit, name: policyAudit.policyName }
    } catch (failure) {
      if (!(failure instanceof ApiError) || failure.status !== 404) throw failure
      const { rulesetAudits } = await api.request<{ rulesetAudits: (Omit<PolicyAudit, 'policyName'> & { rulesetName: string })[] }>(`/api/audits/rulesets/uuid/${encodeURIComponent(requestId)}`)
      const first = rulesetAudits[0]
      if (!first) throw failure
      return { ...first, name: first.rulesetName }
    }
  }, `audit-${requestId}`)
  const remediations = useLoad(() => api.request<AuditRemediations>(`/api/remediations/audits/${encodeURIComponent(requestId)}`), `remediations-${requestId}`)
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit {requestId}</h1>
      <ErrorBox error={audit.error} />
      {audit.value ? (
        <>
          <p>
            <strong>{audit.value.name}</strong> {audit.value.output.passed ? 'passed' : 'failed'} on <time dateTime={audit.value.updatedAt}>{new Date(audit.value.updatedAt).toLocaleString()}</time>, by {audit.value.updatedBy}.
          </p>
          {audit.value.output.disabled ? <p class="notice switched-off-note">The policy was switched off ({audit.value.output.disabledReason}): it judged nothing.</p> : null}
          <Exemptions results={audit.value.output.results} />
          <ResultsTable results={audit.value.output.results} />
          <h2>Document</h2>
          <pre class="document">{pretty(audit.value.input)}</pre>
        </>
      ) : null}
      <h2>Remediation</h2>
      <ErrorBox error={remediations.error} />
      {(remediations.value?.remediations ?? []).map((entry) => (
        <article class="remediation" key={`${entry.ruleset}/${entry.rule}`}>
          <h3>
            {entry.ruleset}/{entry.rule} <span class={`status status-${entry.status}`}>{entry.status}</span>
          </h3>
          <p>{entry.remediation}</p>
          {entry.fields.length > 0 ? (
            <table>
              <TableHead columns={['Field', 'Now', 'Expected', 'Requirement']} />
              <tbody>
                {entry.fields.map((field) => (
                  <tr key={field.path}>
                    <td>
                      <code>{field.path}</code>
                    </td>
                    <td>{field.actual === undefined ? '(absent)' : JSON.stringify(field.actual)}</td>
                    <td>{field.expected === undefined ? '' : JSON.stringify(field.expected)}</td>
                    <td>{field.requirement}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </article>
      ))}
      {remediations.value?.remediations.length === 0 ? <p>Nothing to change: no rule failed.</p> : null}
    </section>
  )
}

/** The exceptions that let rules of this evaluation through, each linked: why an audit passed that would have failed. */
function Exemptions(props: { results: RuleResult[] }) {
  const names = exceptionsOf(props.results)
  if (names.length === 0) return null
  return (
    <p class="exemptions">
      Allowed by{' '}
      {names.map((name, index) => (
        <span key={name}>
          {index > 0 ? ', ' : ''}
          <ExceptionLink name={name} />
        </span>
      ))}
      : the rules {names.length === 1 ? 'it' : 'they'} let through are listed as skip.
    </p>
  )
}

function violations(results: RuleResult[]): string[] {
  return results.filter((result) => result.status === 'fail' || result.status === 'error').map((result) => result.rule)
}

/** The exceptions named by skipped results, each once, in the order they appear. */
function exceptionsOf(results: RuleResult[]): string[] {
  return [...new Set(results.flatMap((result) => (result.exception === undefined ? [] : [result.exception])))]
}

function isoOf(local: string): string | undefined {
  return local === '' ? undefined : new Date(local).toISOString()
}

function pretty(input: string): string {
  try {
    return JSON.stringify(JSON.parse(input), null, 2)
  } catch {
    return input
  }
}
