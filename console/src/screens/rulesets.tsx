import { useEffect, useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.js'
import { withoutStamps } from '../api/stored-definition.js'
import type { RulesetDefinition } from '../api/types.js'
import { ErrorBox } from '../components/error-box.js'
import { ScopedButton } from '../components/scoped-button.js'
import { switched, SwitchToggle } from '../components/switch-toggle.js'
import { useAction } from '../components/use-action.js'
import { useLoad } from '../components/use-api.js'
import type { Session } from '../session.js'
import { YamlEditor } from '../components/yaml-editor.js'
import { follow } from '../router.js'
import { TableHead } from '../components/table-head.js'

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
        <TableHead columns={['Name', 'Labels', 'Rules', 'Version']} />
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
  const switching = useAction()
  // The ruleset written back whole with PUT, one rule's switch changed: nothing else of it changes.
  const setSwitch = async (rule: string, reason: string | undefined): Promise<boolean> => {
    const value = ruleset.value
    if (!value) return false
    let done = false
    await switching.run(async () => {
      const rules = value.rules.map((entry) => (entry.name === rule ? switched(entry, reason) : entry))
      await api.request(`/api/rulesets/${encodeURIComponent(name)}`, { method: 'PUT', body: { ...withoutStamps(value), rules } })
      done = true
      ruleset.reload()
    })
    return done
  }
  useEffect(() => {
    const value = ruleset.value
    if (!value) return
    void import('js-yaml').then(({ dump }) => setYaml(dump(withoutStamps(value), { lineWidth: 120, noRefs: true })))
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
            <TableHead columns={['Rule', 'Severity', 'Description', 'Enabled']} />
            <tbody>
              {ruleset.value.rules.map((rule) => (
                <tr key={rule.name} data-rule={rule.name}>
                  <td>{rule.name}</td>
                  <td>{rule.severity ?? 'medium'}</td>
                  <td>{rule.description ?? ''}</td>
                  <td>
                    <SwitchToggle session={props.session} scope="rulesets:write" label={`rule ${rule.name}`} enabled={rule.enabled !== false} disabledReason={rule.disabledReason} onSwitch={(reason) => setSwitch(rule.name, reason)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <ErrorBox error={switching.error} />
          <h2>YAML</h2>
          <RulesetYaml api={api} session={props.session} name={name} yaml={yaml} onSaved={() => ruleset.reload()} />
          <ScopedButton session={props.session} scope="rulesets:write" kind="danger" onClick={() => void api.request(`/api/rulesets/${encodeURIComponent(name)}`, { method: 'DELETE' }).then(() => history.back(), () => ruleset.reload())}>
            Delete
          </ScopedButton>
        </>
      ) : null}
    </section>
  )
}

/** The YAML, shown, and edited in place: saved with PUT as `application/yaml`. */
function RulesetYaml(props: { api: ApiClient; session: Session; name: string; yaml: string; onSaved: () => void }) {
  const [editing, setEditing] = useState(false)
  if (!editing) {
    return (
      <>
        <pre class="document" id="ruleset-yaml">{props.yaml}</pre>
        <ScopedButton session={props.session} scope="rulesets:write" busy={props.yaml === ''} onClick={() => setEditing(true)}>
          Edit YAML
        </ScopedButton>{' '}
      </>
    )
  }
  return (
    <YamlEditor
      id="ruleset-yaml-editor"
      label={`YAML of ${props.name}`}
      initial={props.yaml}
      session={props.session}
      scope="rulesets:write"
      saveLabel="Save YAML"
      save={(text) => props.api.request(`/api/rulesets/${encodeURIComponent(props.name)}`, { method: 'PUT', text: { body: text, contentType: 'application/yaml' } })}
      onSaved={() => {
        setEditing(false)
        props.onSaved()
      }}
      onCancel={() => setEditing(false)}
    />
  )
}
