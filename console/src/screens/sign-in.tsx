import { useState } from 'preact/hooks'
import { ErrorBox } from '../components/error-box.js'
import { signIn, type Session } from '../session.js'

/** The token is checked against the API (whoami) before the tab keeps it. */
export function SignIn(props: { onSignedIn: (session: Session) => void; reason?: string }) {
  const [token, setToken] = useState('')
  const [error, setError] = useState<unknown>(undefined)
  const [busy, setBusy] = useState(false)
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      props.onSignedIn(await signIn(token.trim()))
    } catch (failure) {
      setError(failure)
    } finally {
      setBusy(false)
    }
  }
  return (
    <main class="sign-in">
      <h1>Verdict</h1>
      {props.reason ? <p class="notice">{props.reason}</p> : null}
      <form onSubmit={submit}>
        <label for="token">API token</label>
        <input id="token" name="token" type="password" autocomplete="off" value={token} onInput={(event) => setToken((event.target as HTMLInputElement).value)} required />
        <p class="hint">Kept for this tab only; `make run` prints where the admin token is.</p>
        <button type="submit" class="primary" disabled={busy || token.trim() === ''}>
          Sign in
        </button>
      </form>
      <ErrorBox error={error} />
    </main>
  )
}
