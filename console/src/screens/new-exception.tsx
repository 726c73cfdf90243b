import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.js'
import { YamlEditor } from '../components/yaml-editor.js'
import { navigate } from '../router.js'
import type { Session } from '../session.js'

/**
 * A starting point to edit, never saved as it is by accident: every value names what it stands for.
 * Block lists, so that an error about one item points at its own line.
 */
function template(nowMs: number): string {
  const inThirtyDays = new Date(nowMs + 30 * 24 * 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z')
  return `policies:
- production
rules:
- ruleset: pod-security
  rule: no-privileged
match:
  kinds:
  - Pod
  namespaces:
  - billing
  names:
  - legacy-*
reason: why these workloads may break the rule, and what ends it
ticket: OPS-1234
owner: team@example.com
expiresAt: "${inThirtyDays}"
`
}

/** A new PolicyException: its name, and its definition as YAML or JSON (plain or manifest form), created with POST. */
export function NewException(props: { api: ApiClient; session: Session }) {
  const [name, setName] = useState('')
  const [initial] = useState(() => template(Date.now()))
  return (
    <section aria-labelledby="new-exception-title">
      <h1 id="new-exception-title">New exception</h1>
      <p class="hint">
        The plain form below, or a <code>verdict.dev/v1alpha1</code> PolicyException manifest (its <code>metadata.name</code> must be the name given here), in YAML or JSON.
        The API checks it as it checks any client's: an error is shown on the line it is about.
      </p>
      <div class="stacked">
        <label for="exception-name">Name</label>
        <input id="exception-name" value={name} required onInput={(event) => setName((event.target as HTMLInputElement).value.trim())} />
      </div>
      <YamlEditor
        id="exception-yaml-editor"
        label="Definition (YAML or JSON)"
        initial={initial}
        session={props.session}
        scope="exceptions:write"
        saveLabel="Create"
        ready={name !== ''}
        save={(text) => props.api.request(`/api/exceptions/${encodeURIComponent(name)}`, { method: 'POST', text: { body: text, contentType: 'application/yaml' } })}
        onSaved={() => navigate(`/exceptions/${encodeURIComponent(name)}`)}
      />
    </section>
  )
}
