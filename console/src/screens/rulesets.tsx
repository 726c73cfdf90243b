import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiError, type ApiClient } from '../api/api-client.js'
import { withoutStamps } from '../api/stored-definition.js'
import type { RulesetDefinition } from '../api/types.js'
import { ErrorBox } from '../components/error-box.js'
import { ScopedButton } from '../components/scoped-button.js'
import { useLoad } from '../components/use-api.js'
import type { Session } from '../session.js'
import { lineOfError } from '../yaml-field-line.js'
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
            <TableHead columns={['Rule', 'Severity', 'Description']} />
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
          <YamlEditor api={api} session={props.session} name={name} yaml={yaml} onSaved={() => ruleset.reload()} />
          <ScopedButton session={props.session} scope="rulesets:write" kind="danger" onClick={() => void api.request(`/api/rulesets/${encodeURIComponent(name)}`, { method: 'DELETE' }).then(() => history.back(), () => ruleset.reload())}>
            Delete
          </ScopedButton>
        </>
      ) : null}
    </section>
  )
}

/**
 * The YAML, and its editor: saved with PUT as `application/yaml`, so the API checks it as it checks
 * any client's; an error it answers is shown on the line it is about (lineOfError), with the caret
 * moved there.
 */
function YamlEditor(props: { api: ApiClient; session: Session; name: string; yaml: string; onSaved: () => void }) {
  const [editing, setEditing] = useState(false)
  const [text, setText] = useState(props.yaml)
  const [error, setError] = useState<{ line: number | undefined; message: string } | undefined>(undefined)
  const area = useRef<HTMLTextAreaElement>(null)
  useEffect(() => setText(props.yaml), [props.yaml])
  const save = async (): Promise<void> => {
    setError(undefined)
    try {
      await props.api.request(`/api/rulesets/${encodeURIComponent(props.name)}`, { method: 'PUT', text: { body: text, contentType: 'application/yaml' } })
      setEditing(false)
      props.onSaved()
    } catch (failure) {
      const message = failure instanceof ApiError ? `${failure.error}: ${failure.details}` : String(failure)
      const line = failure instanceof ApiError ? lineOfError(text, failure.details) : undefined
      setError({ line, message })
      if (line !== undefined && area.current) {
        const start = text.split('\n').slice(0, line - 1).join('\n').length + (line > 1 ? 1 : 0)
        area.current.focus()
        area.current.setSelectionRange(start, start + (text.split('\n')[line - 1]?.length ?? 0))
      }
    }
  }
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
  const lines = text.split('\n')
  return (
    <div class="yaml-editor">
      <label for="ruleset-yaml-editor">YAML of {props.name}</label>
      <textarea id="ruleset-yaml-editor" ref={area} rows={Math.min(30, lines.length + 2)} spellcheck={false} value={text} onInput={(event) => setText((event.target as HTMLTextAreaElement).value)} />
      {error ? (
        <p class="error" role="alert" id="yaml-error" data-line={error.line}>
          {error.line === undefined ? '' : `Line ${error.line}: `}
          {error.message}
          {error.line === undefined ? null : (
            <>
              <br />
              <code>{lines[error.line - 1]}</code>
            </>
          )}
        </p>
      ) : null}
      <div class="actions">
        <ScopedButton session={props.session} scope="rulesets:write" kind="primary" onClick={() => void save()}>
          Save YAML
        </ScopedButton>
        <button
          type="button"
          onClick={() => {
            setEditing(false)
            setText(props.yaml)
            setError(undefined)
          }}
        >
          Cancel
        </button>
      </div>
    </div>
  )
}
