import { useEffect, useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.js'
import { withoutStamps } from '../api/stored-definition.js'
import type { PolicyDefinition, PolicyExceptionView } from '../api/types.js'
import { ErrorBox } from '../components/error-box.js'
import { ScopedButton } from '../components/scoped-button.js'
import { TableHead } from '../components/table-head.js'
import { useAction } from '../components/use-action.js'
import { useLoad } from '../components/use-api.js'
import { YamlEditor } from '../components/yaml-editor.js'
import { follow, navigate } from '../router.js'
import { holds, type Session } from '../session.js'
import { timeToExpiry } from '../time-to-expiry.js'

const WRITE = 'exceptions:write'

/** A list as the API answered it, with the instant it arrived: time to expiry is counted from there, as the state was. */
interface ListAnswer {
  exceptions: PolicyExceptionView[]
  answeredAt: number
}

/** PolicyExceptions, filtered by policy and state as GET /api/exceptions takes them, each with its state and time to expiry. */
export function Exceptions(props: { api: ApiClient; session: Session }) {
  const { api, session } = props
  const [filter, setFilter] = useState({ policy: '', state: '' })
  const [draft, setDraft] = useState(filter)
  const policies = useLoad(async () => (await api.request<{ policies: PolicyDefinition[] }>('/api/policies')).policies, 'policies')
  const list = useLoad(async (): Promise<ListAnswer> => {
    const { exceptions } = await api.request<{ exceptions: PolicyExceptionView[] }>('/api/exceptions', { query: filter })
    return { exceptions, answeredAt: Date.now() }
  }, `exceptions:${JSON.stringify(filter)}`)
  return (
    <section aria-labelledby="exceptions-title">
      <h1 id="exceptions-title">Exceptions</h1>
      <p class="hint">Workloads let through named policies or rules, with a reason and an end date. An exempted rule is a skip naming its exception in answers and audits.</p>
      {holds(session, WRITE) ? (
        <p>
          <a href="/ui/exceptions/new" onClick={(event) => follow(event, '/exceptions/new')}>
            New exception
          </a>
        </p>
      ) : (
        <p class="notice">Creating, editing and deleting exceptions needs the scope {WRITE}.</p>
      )}
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault()
          setFilter(draft)
        }}
      >
        <label>
          Policy
          <select id="exception-policy" value={draft.policy} onChange={(event) => setDraft({ ...draft, policy: (event.target as HTMLSelectElement).value })}>
            <option value="">any</option>
            {(policies.value ?? []).map((policy) => (
              <option key={policy.name} value={policy.name}>
                {policy.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          State
          <select id="exception-state" value={draft.state} onChange={(event) => setDraft({ ...draft, state: (event.target as HTMLSelectElement).value })}>
            <option value="">any</option>
            <option value="active">active</option>
            <option value="expired">expired</option>
          </select>
        </label>
        <button type="submit">Filter</button>
      </form>
      <ErrorBox error={list.error} />
      <table class="exceptions">
        <TableHead columns={['Name', 'Exempts from', 'State', 'Expires', 'Owner', 'Reason']} />
        <tbody>
          {(list.value?.exceptions ?? []).map((exception) => (
            <tr key={exception.name} data-name={exception.name}>
              <td>
                <a href={`/ui/exceptions/${encodeURIComponent(exception.name)}`} onClick={(event) => follow(event, `/exceptions/${encodeURIComponent(exception.name)}`)}>
                  {exception.name}
                </a>
              </td>
              <td>{exemptsFrom(exception)}</td>
              <td>
                <span class={`status status-${exception.state}`}>{exception.state}</span>
              </td>
              <td>
                <Expiry expiresAt={exception.expiresAt} nowMs={list.value?.answeredAt ?? Date.now()} />
              </td>
              <td>{exception.owner ?? ''}</td>
              <td>{exception.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.value?.exceptions.length === 0 ? <p>No exception{filter.policy || filter.state ? ' matches these filters' : ''}.</p> : null}
    </section>
  )
}

/** One exception: what it lets through, why and until when; its YAML, edited in place; deleted after a confirmation. */
export function ExceptionDetail(props: { api: ApiClient; session: Session; name: string }) {
  const { api, session, name } = props
  const path = `/api/exceptions/${encodeURIComponent(name)}`
  const exception = useLoad(async () => ({ exception: await api.request<PolicyExceptionView>(path), answeredAt: Date.now() }), `exception:${name}`)
  const [yaml, setYaml] = useState('')
  const [editing, setEditing] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const removal = useAction()
  useEffect(() => {
    const value = exception.value?.exception
    if (!value) return
    const { state: _state, ...definition } = withoutStamps(value)
    void import('js-yaml').then(({ dump }) => setYaml(dump(definition, { lineWidth: 120, noRefs: true })))
  }, [exception.value])
  const shown = exception.value?.exception
  // One made from a PolicyException object is the cluster's: the API refuses to change it (409).
  const clusterManaged = shown?.source === 'crd'
  return (
    <section aria-labelledby="exception-title">
      <h1 id="exception-title">Exception {name}</h1>
      <ErrorBox error={exception.error} />
      {shown && exception.value ? (
        <>
          <dl class="facts">
            <dt>State</dt>
            <dd>
              <span class={`status status-${shown.state}`} id="exception-state-value">
                {shown.state}
              </span>
            </dd>
            <dt>Expires</dt>
            <dd>
              <Expiry expiresAt={shown.expiresAt} nowMs={exception.value.answeredAt} />
            </dd>
            <dt>Exempts from</dt>
            <dd>{exemptsFrom(shown)}</dd>
            <dt>Reason</dt>
            <dd>{shown.reason}</dd>
            {shown.ticket ? (
              <>
                <dt>Ticket</dt>
                <dd>{/^https?:\/\//.test(shown.ticket) ? <a href={shown.ticket} rel="noopener noreferrer">{shown.ticket}</a> : shown.ticket}</dd>
              </>
            ) : null}
            {shown.owner ? (
              <>
                <dt>Owner</dt>
                <dd>{shown.owner}</dd>
              </>
            ) : null}
            <dt>Version</dt>
            <dd>
              {shown.version} — created by {shown.createdBy}, last changed by {shown.updatedBy}
              {shown.updatedAt ? (
                <>
                  {' '}
                  on <time dateTime={shown.updatedAt}>{new Date(shown.updatedAt).toLocaleString()}</time>
                </>
              ) : null}
              {clusterManaged ? ' (from the PolicyException resource in the cluster)' : ''}
            </dd>
          </dl>
          <h2>YAML</h2>
          {clusterManaged ? <p class="notice">Managed by the PolicyException resource in the cluster: change or delete it with kubectl.</p> : null}
          {editing ? (
            <YamlEditor
              id="exception-yaml-editor"
              label={`YAML of ${name}`}
              initial={yaml}
              session={session}
              scope={WRITE}
              saveLabel="Save YAML"
              save={(text) => api.request(path, { method: 'PUT', text: { body: text, contentType: 'application/yaml' } })}
              onSaved={() => {
                setEditing(false)
                exception.reload()
              }}
              onCancel={() => setEditing(false)}
            />
          ) : (
            <>
              <pre class="document" id="exception-yaml">
                {yaml}
              </pre>
              {clusterManaged ? null : (
                <div class="actions">
                  <ScopedButton session={session} scope={WRITE} busy={yaml === ''} onClick={() => setEditing(true)}>
                    Edit YAML
                  </ScopedButton>
                  <ScopedButton session={session} scope={WRITE} kind="danger" busy={confirming} onClick={() => setConfirming(true)}>
                    Delete
                  </ScopedButton>
                </div>
              )}
            </>
          )}
          {confirming ? (
            <div class="confirm" role="alertdialog" aria-labelledby="confirm-delete-text">
              <p id="confirm-delete-text">Delete the exception {name}? The workloads it lets through are judged by their rules again from then on.</p>
              <div class="actions">
                <ScopedButton
                  session={session}
                  scope={WRITE}
                  kind="danger"
                  busy={removal.busy}
                  onClick={() =>
                    void removal.run(async () => {
                      await api.request(path, { method: 'DELETE' })
                      navigate('/exceptions')
                    })
                  }
                >
                  {`Delete ${name}`}
                </ScopedButton>
                <button type="button" onClick={() => setConfirming(false)}>
                  Keep it
                </button>
              </div>
              <ErrorBox error={removal.error} />
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  )
}

/** The end of an exception relative to `nowMs` ("in 3 days", "expired 2 h ago"), the instant itself on hover. */
function Expiry(props: { expiresAt: string | undefined; nowMs: number }) {
  const text = timeToExpiry(props.expiresAt, props.nowMs)
  if (props.expiresAt === undefined) return <span class="expiry">{text}</span>
  return (
    <time class="expiry" dateTime={props.expiresAt} title={new Date(props.expiresAt).toLocaleString()}>
      {text}
    </time>
  )
}

/** `policies` and `rules` as one line: "production, staging-* · pod-security/no-latest-tag". */
function exemptsFrom(exception: Pick<PolicyExceptionView, 'policies' | 'rules'>): string {
  const policies = exception.policies?.length ? exception.policies.join(', ') : 'any policy'
  const rules = exception.rules?.length ? exception.rules.map((rule) => `${rule.ruleset}/${rule.rule}`).join(', ') : 'every rule'
  return `${policies} · ${rules}`
}
