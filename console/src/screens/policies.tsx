import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.js'
import type { PolicyDefinition, RulesetDefinition } from '../api/types.js'
import { ErrorBox } from '../components/error-box.js'
import { ScopedButton } from '../components/scoped-button.js'
import { switched, SwitchToggle } from '../components/switch-toggle.js'
import { withoutStamps } from '../api/stored-definition.js'
import { TableHead } from '../components/table-head.js'
import { useAction } from '../components/use-action.js'
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
  const { busy, error, run } = useAction()
  const act = (action: () => Promise<unknown>): Promise<void> =>
    run(async () => {
      await action()
      policies.reload()
    })
  // Written back whole with PUT, as stored but for the switch: nothing else of the policy changes.
  const setSwitch = async (policy: PolicyDefinition, reason: string | undefined): Promise<boolean> => {
    let done = false
    await act(async () => {
      await api.request(`/api/policies/${encodeURIComponent(policy.name)}`, { method: 'PUT', body: switched(withoutStamps(policy), reason) })
      done = true
    })
    return done
  }
  const save = (): Promise<void> =>
    act(async () => {
      const kinds = form.kinds.split(',').map((kind) => kind.trim()).filter((kind) => kind !== '')
      const { kinds: _kinds, ...otherMatch } = editing?.match ?? {}
      const match = { ...otherMatch, ...(kinds.length > 0 ? { kinds } : {}) }
      const body: Record<string, unknown> = { ...withoutStamps(editing ?? {}), action: form.action, rulesets: form.rulesets, match }
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
        <TableHead columns={['Name', 'Action', 'Rulesets', 'Enabled', 'Version', { hidden: 'Actions' }]} />
        <tbody>
          {(policies.value ?? []).map((policy) => (
            <tr key={policy.name}>
              <td>{policy.name}</td>
              <td>{policy.action ?? 'Audit'}</td>
              <td>{(policy.rulesets ?? []).join(', ')}</td>
              <td>
                <SwitchToggle session={session} scope="policies:write" label={`policy ${policy.name}`} enabled={policy.enabled !== false} disabledReason={policy.disabledReason} onSwitch={(reason) => setSwitch(policy, reason)} />
              </td>
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
