import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.js'
import { ErrorBox } from '../components/error-box.js'
import { ScopedButton } from '../components/scoped-button.js'
import { useAction } from '../components/use-action.js'
import { useLoad } from '../components/use-api.js'
import { holds, type Session } from '../session.js'
import { TableHead } from '../components/table-head.js'

interface TokenView {
  id: string
  name: string
  owner?: string
  scopes: string[]
  createdAt: string
  expiresAt: string | null
  lastUsedAt: string | null
  revokedAt: string | null
}

const SCOPES = ['eval', 'audits:read', 'rulesets:read', 'rulesets:write', 'policies:read', 'policies:write', 'exceptions:read', 'exceptions:write', 'tokens:manage', 'admin']

/** API tokens: created (the secret is shown once, here) and revoked; listing needs tokens:manage too. */
export function Tokens(props: { api: ApiClient; session: Session }) {
  const { api, session } = props
  const allowed = holds(session, 'tokens:manage')
  const tokens = useLoad(async () => (allowed ? (await api.request<{ tokens: TokenView[] }>('/api/tokens')).tokens : []), 'tokens')
  const [form, setForm] = useState({ name: '', owner: '', scopes: [] as string[] })
  const [secret, setSecret] = useState<string | undefined>(undefined)
  const { error, run } = useAction()
  const act = (action: () => Promise<void>): Promise<void> =>
    run(async () => {
      await action()
      tokens.reload()
    })
  const create = (): Promise<void> =>
    act(async () => {
      const created = await api.request<TokenView & { secret: string }>('/api/tokens', { method: 'POST', body: { name: form.name, scopes: form.scopes, ...(form.owner ? { owner: form.owner } : {}) } })
      setSecret(created.secret)
      setForm({ name: '', owner: '', scopes: [] })
    })
  return (
    <section aria-labelledby="tokens-title">
      <h1 id="tokens-title">Tokens</h1>
      {allowed ? null : <p class="notice">Listing and managing tokens needs the scope tokens:manage.</p>}
      <ErrorBox error={tokens.error} />
      {secret ? (
        <div class="secret" role="status">
          <p>The new token's secret, shown this once: store it now.</p>
          <code id="token-secret">{secret}</code>
        </div>
      ) : null}
      <table>
        <TableHead columns={['Name', 'Owner', 'Scopes', 'Last used', 'State', { hidden: 'Actions' }]} />
        <tbody>
          {(tokens.value ?? []).map((token) => (
            <tr key={token.id}>
              <td>{token.name}</td>
              <td>{token.owner ?? ''}</td>
              <td>{token.scopes.join(', ')}</td>
              <td>{token.lastUsedAt ? new Date(token.lastUsedAt).toLocaleString() : 'never'}</td>
              <td>{token.revokedAt ? 'revoked' : 'active'}</td>
              <td class="actions">
                {token.revokedAt ? null : (
                  <ScopedButton session={session} scope="tokens:manage" kind="danger" onClick={() => void act(async () => void (await api.request(`/api/tokens/${encodeURIComponent(token.id)}`, { method: 'DELETE' })))}>
                    Revoke
                  </ScopedButton>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>New token</h2>
      <form
        class="stacked"
        onSubmit={(event) => {
          event.preventDefault()
          void create()
        }}
      >
        <label for="token-name">Name</label>
        <input id="token-name" value={form.name} onInput={(event) => {
            const name = (event.target as HTMLInputElement).value
            setForm((current) => ({ ...current, name }))
          }} required />
        <label for="token-owner">Owner (written to audits; default: yours)</label>
        <input id="token-owner" value={form.owner} onInput={(event) => {
            const owner = (event.target as HTMLInputElement).value
            setForm((current) => ({ ...current, owner }))
          }} />
        <fieldset>
          <legend>Scopes</legend>
          {SCOPES.map((scope) => (
            <label key={scope} class="check">
              <input
                type="checkbox"
                value={scope}
                checked={form.scopes.includes(scope)}
                onChange={(event) => {
                  const checked = (event.target as HTMLInputElement).checked
                  // Each change from the latest form: typing and clicking faster than renders must lose nothing.
                  setForm((current) => ({ ...current, scopes: checked ? [...current.scopes, scope] : current.scopes.filter((entry) => entry !== scope) }))
                }}
              />{' '}
              {scope}
            </label>
          ))}
        </fieldset>
        <ScopedButton session={session} scope="tokens:manage" kind="primary" busy={form.name === '' || form.scopes.length === 0} onClick={() => void create()}>
          Create
        </ScopedButton>
      </form>
      <ErrorBox error={error} />
    </section>
  )
}
