import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.js'
import type { PolicyDefinition, RulesetDefinition } from '../api/types.js'
import { ErrorBox } from '../components/error-box.js'
import { ScopedButton } from '../components/scoped-button.js'
import { useLoad } from '../components/use-api.js'
import type { Session } from '../session.js'

/** Policies: each with its action and rulesets; created, replaced and deleted through the API. */
export function Policies(props: { api: ApiClient; session: Session }) {
  const { api, session } = props
  const policies = useLoad(async () => (await api.request<{ policies: PolicyDefinition[] }>('/api/policies')).policies, 'policies')
  const rulesets = useLoad(async () => (await api.request<{ rulesets: RulesetDefinition[] }>('/api/rulesets')).rulesets, 'rulesets')
  const [form, setForm] = useState({ name: '', action: 'Audit', rulesets: [] as string[], kinds: '' })
  // The policy being edited, as stored: what the form does not show (match selectors, labels, failure policy...) is written back as it was.
  const [editing, setEditing] = useState<PolicyDefinition | undefined>(undefined)
  const [error, setError] = useState<unknown>(undefined)
  const [busy, setBusy] = useState(false)
  const act = async (action: () => Promise<unknown>): Promise<void> => {
    setBusy(true)
    setError(undefined)
    try {
      await action()
      policies.reload()
    } catch (failure) {
      setError(failure)
    } finally {
      setBusy(false)
    }
  }
  const save = (): Promise<void> =>
    act(async () => {
      const kinds = form.kinds.split(',').map((kind) => kind.trim()).filter((kind) => kind !== '')
      const { kinds: _kinds, ...otherMatch } = editing?.match ?? {}
      const match = { ...otherMatch, ...(kinds.length > 0 ? { kinds } : {}) }
      const body = { ...storedSpec(editing), action: form.action, rulesets: form.rulesets, ...(Object.keys(match).length > 0 ? { match } : {}) }
      if (Object.keys(match).length === 0) delete body.match
      await api.request(`/api/policies/${encodeURIComponent(form.name)}`, { method: editing ? 'PUT' : 'POST', body })
      setForm({ name: '', action: 'Audit', rulesets: [], kinds: '' })
      setEditing(undefined)
    })
  return (
    <section aria-labelledby="policies-title">
      <h1 id="policies-title">Policies</h1>
      <ErrorBox error={policies.error} />
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Action</th>
            <th scope="col">Rulesets</th>
            <th scope="col">Version</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {(policies.value ?? []).map((policy) => (
            <tr key={policy.name}>
              <td>{policy.name}</td>
              <td>{policy.action ?? 'Audit'}</td>
              <td>{(policy.rulesets ?? []).join(', ')}</td>
              <td class="number">{policy.version ?? ''}</td>
              <td class="actions">
                <ScopedButton
                  session={session}
                  scope="policies:write"
                  onClick={() => {
                    setEditing(policy)
                    setForm({ name: policy.name, action: policy.action ?? 'Audit', rulesets: policy.rulesets ?? [], kinds: (policy.match?.kinds ?? []).join(', ') })
                  }}
                >
                  Edit
                </ScopedButton>
                <ScopedButton session={session} scope="policies:write" kind="danger" busy={busy} onClick={() => void act(() => api.request(`/api/policies/${encodeURIComponent(policy.name)}`, { method: 'DELETE' }))}>
                  Delete
                </ScopedButton>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>{editing ? `Edit ${form.name}` : 'New policy'}</h2>
      {editing ? <p class="hint">What this form does not show (namespace and object selectors, labels, failure policy) is kept as stored.</p> : null}
      <form
        class="stacked"
        onSubmit={(event) => {
          event.preventDefault()
          void save()
        }}
      >
        <label for="policy-name">Name</label>
        <input id="policy-name" value={form.name} disabled={editing !== undefined} onInput={(event) => setForm({ ...form, name: (event.target as HTMLInputElement).value })} required />
        <label for="policy-action">Action</label>
        <select id="policy-action" value={form.action} onChange={(event) => setForm({ ...form, action: (event.target as HTMLSelectElement).value })}>
          <option>Audit</option>
          <option>Warn</option>
          <option>Deny</option>
        </select>
        <label for="policy-rulesets">Rulesets</label>
        <select
          id="policy-rulesets"
          multiple
          size={Math.min(6, Math.max(2, rulesets.value?.length ?? 2))}
          onChange={(event) => setForm({ ...form, rulesets: [...(event.target as HTMLSelectElement).selectedOptions].map((option) => option.value) })}
        >
          {(rulesets.value ?? []).map((ruleset) => (
            <option key={ruleset.name} value={ruleset.name} selected={form.rulesets.includes(ruleset.name)}>
              {ruleset.name}
            </option>
          ))}
        </select>
        <label for="policy-kinds">Match kinds (comma-separated, optional)</label>
        <input id="policy-kinds" value={form.kinds} placeholder="Pod, Deployment" onInput={(event) => setForm({ ...form, kinds: (event.target as HTMLInputElement).value })} />
        <ScopedButton session={session} scope="policies:write" kind="primary" busy={busy || form.name === ''} onClick={() => void save()}>
          {editing ? 'Save' : 'Create'}
        </ScopedButton>
      </form>
      <ErrorBox error={error} />
    </section>
  )
}

/** A stored policy's own fields, without what the store stamps, to write back with the form's changes. */
function storedSpec(policy: PolicyDefinition | undefined): Record<string, unknown> {
  if (!policy) return {}
  const { name: _name, version: _version, createdAt: _createdAt, createdBy: _createdBy, updatedAt: _updatedAt, updatedBy: _updatedBy, source: _source, ...spec } = policy as PolicyDefinition & Record<string, unknown>
  return spec
}
