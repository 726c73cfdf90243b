import { useState } from 'preact/hooks'
import { ErrorBox } from '../components/error-box.js'
import { useAction } from '../components/use-action.js'
import { signIn, type Session } from '../session.js'

/** The token is checked against the API (whoami) before the tab keeps it. */
export function SignIn(props: { onSignedIn: (session: Session) => void; reason?: string }) {
  const [token, setToken] = useState('')
  const { busy, error, run } = useAction()
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault()
    await run(async () => props.onSignedIn(await signIn(token.trim())))
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
