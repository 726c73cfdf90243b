import { useEffect, useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.js'
import type { RulesetDefinition } from '../api/types.js'
import { ErrorBox } from '../components/error-box.js'
import { ScopedButton } from '../components/scoped-button.js'
import { useLoad } from '../components/use-api.js'
import type { Session } from '../session.js'
import { follow } from './overview.js'

/** Rulesets, filtered by label (`key=value`, as GET /api/rulesets?label= takes it). */
export function Rulesets(props: { api: ApiClient; session: Session }) {
  const { api } = props
  const [label, setLabel] = useState('')
  const [applied, setApplied] = useState('')
  const rulesets = useLoad(async () => (await api.request<{ rulesets: RulesetDefinition[] }>('/api/rulesets', { query: { label: applied } })).rulesets, `rulesets:${applied}`)
  return (
    <section aria-labelledby="rulesets-title">
      <h1 id="rulesets-title">Rulesets</h1>
      <p>
        <a href="/ui/rulesets/new" onClick={(event) => follow(event, '/rulesets/new')}>
          New ruleset from an instruction
        </a>
      </p>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault()
          setApplied(label.trim())
        }}
      >
        <label>
          Label (key=value)
          <input id="ruleset-label" value={label} onInput={(event) => setLabel((event.target as HTMLInputElement).value)} placeholder="team=payments" />
        </label>
        <button type="submit">Filter</button>
      </form>
      <ErrorBox error={rulesets.error} />
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Labels</th>
            <th scope="col">Rules</th>
            <th scope="col">Version</th>
          </tr>
        </thead>
        <tbody>
          {(rulesets.value ?? []).map((ruleset) => (
            <tr key={ruleset.name}>
              <td>
                <a href={`/ui/rulesets/${encodeURIComponent(ruleset.name)}`} onClick={(event) => follow(event, `/rulesets/${encodeURIComponent(ruleset.name)}`)}>
                  {ruleset.name}
                </a>
              </td>
              <td>
                {Object.entries(ruleset.labels ?? {}).map(([key, value]) => (
                  <span class="tag" key={key}>
                    {key}={value}
                  </span>
                ))}
              </td>
              <td class="number">{ruleset.rules.length}</td>
              <td class="number">{ruleset.version ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

/** One ruleset: its rules, and its definition as YAML (js-yaml, loaded with this screen's chunk). */
export function RulesetDetail(props: { api: ApiClient; session: Session; name: string }) {
  const { api, name } = props
  const ruleset = useLoad(() => api.request<RulesetDefinition & Record<string, unknown>>(`/api/rulesets/${encodeURIComponent(name)}`), `ruleset:${name}`)
  const [yaml, setYaml] = useState('')
  useEffect(() => {
    const value = ruleset.value
    if (!value) return
    void import('js-yaml').then(({ dump }) => setYaml(dump(editable(value), { lineWidth: 120, noRefs: true })))
  }, [ruleset.value])
  return (
    <section aria-labelledby="ruleset-title">
      <h1 id="ruleset-title">Ruleset {name}</h1>
      <ErrorBox error={ruleset.error} />
      {ruleset.value ? (
        <>
          <p>
            Version {ruleset.value.version}
            {ruleset.value.description ? ` — ${ruleset.value.description}` : ''}
          </p>
          <table>
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">Severity</th>
                <th scope="col">Description</th>
              </tr>
            </thead>
            <tbody>
              {ruleset.value.rules.map((rule) => (
                <tr key={rule.name}>
                  <td>{rule.name}</td>
                  <td>{rule.severity ?? 'medium'}</td>
                  <td>{rule.description ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h2>YAML</h2>
          <pre class="document" id="ruleset-yaml">{yaml}</pre>
          <ScopedButton session={props.session} scope="rulesets:write" kind="danger" onClick={() => void api.request(`/api/rulesets/${encodeURIComponent(name)}`, { method: 'DELETE' }).then(() => history.back(), () => ruleset.reload())}>
            Delete
          </ScopedButton>
        </>
      ) : null}
    </section>
  )
}

/** The definition as it is written back: without what the store stamps. */
function editable(ruleset: Record<string, unknown>): Record<string, unknown> {
  const { name: _name, version: _version, createdAt: _createdAt, createdBy: _createdBy, updatedAt: _updatedAt, updatedBy: _updatedBy, source: _source, ...rest } = ruleset
  return rest
}
