import { useEffect, useMemo, useState } from 'preact/hooks'
import { ApiClient } from './api/api-client.js'
import { follow, navigate, useRoute } from './router.js'
import { AuditDetail, Audits } from './screens/audits.js'
import { ExceptionDetail, Exceptions } from './screens/exceptions.js'
import { NewException } from './screens/new-exception.js'
import { Overview } from './screens/overview.js'
import { Policies } from './screens/policies.js'
import { Recommendations } from './screens/recommendations.js'
import { RulesetFromInstruction } from './screens/ruleset-from-instruction.js'
import { RulesetDetail, Rulesets } from './screens/rulesets.js'
import { SignIn } from './screens/sign-in.js'
import { Timeseries } from './screens/timeseries.js'
import { Tokens } from './screens/tokens.js'
import { TryIt } from './screens/try-it.js'
import { signIn, signOut, storedToken, type Session } from './session.js'
import { ThemeToggle } from './components/theme-toggle.js'

const SCREENS = [
  { path: '/', title: 'Overview' },
  { path: '/audits', title: 'Audits' },
  { path: '/timeseries', title: 'Timeseries' },
  { path: '/rulesets', title: 'Rulesets' },
  { path: '/policies', title: 'Policies' },
  { path: '/exceptions', title: 'Exceptions' },
  { path: '/try', title: 'Try it' },
  { path: '/recommendations', title: 'Recommendations' },
  { path: '/tokens', title: 'Tokens' },
] as const

export function App() {
  const [session, setSession] = useState<Session | undefined>(undefined)
  const [checking, setChecking] = useState(() => storedToken() !== undefined)
  const [reason, setReason] = useState<string | undefined>(undefined)
  const route = useRoute()
  // A token kept by this tab is checked again when the page loads: it may have been revoked since.
  useEffect(() => {
    const token = storedToken()
    if (token === undefined) return
    signIn(token).then(setSession, () => {
      signOut()
      setReason('Your token is no longer valid; sign in again.')
    }).finally(() => setChecking(false))
  }, [])
  const api = useMemo(
    () =>
      session
        ? new ApiClient(session.token, () => {
            signOut()
            setSession(undefined)
            setReason('Your token is no longer valid (revoked or expired); sign in again.')
          })
        : undefined,
    [session],
  )
  if (checking) return <p class="loading">Checking the token…</p>
  if (!session || !api) {
    return (
      <SignIn
        {...(reason ? { reason } : {})}
        onSignedIn={(signed) => {
          setReason(undefined)
          setSession(signed)
        }}
      />
    )
  }
  const auditMatch = /^\/audits\/(.+)$/.exec(route.path)
  const rulesetMatch = /^\/rulesets\/(.+)$/.exec(route.path)
  const exceptionMatch = /^\/exceptions\/(.+)$/.exec(route.path)
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Verdict</span>
        <nav aria-label="screens">
          {SCREENS.map((screen) => (
            <a key={screen.path} href={`/ui${screen.path}`} aria-current={isCurrent(route.path, screen.path) ? 'page' : undefined} onClick={(event) => follow(event, screen.path)}>
              {screen.title}
            </a>
          ))}
        </nav>
        <span class="who" title={session.identity.scopes.join(', ')}>
          {session.identity.owner ?? 'token'}
        </span>
        <ThemeToggle />
        <button
          type="button"
          onClick={() => {
            signOut()
            setSession(undefined)
            navigate('/')
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {auditMatch ? (
          <AuditDetail api={api} requestId={decodeURIComponent(auditMatch[1] ?? '')} />
        ) : route.path === '/rulesets/new' ? (
          <RulesetFromInstruction api={api} session={session} />
        ) : rulesetMatch ? (
          <RulesetDetail api={api} session={session} name={decodeURIComponent(rulesetMatch[1] ?? '')} />
        ) : route.path === '/rulesets' ? (
          <Rulesets api={api} session={session} />
        ) : route.path === '/audits' ? (
          <Audits api={api} />
        ) : route.path === '/timeseries' ? (
          <Timeseries api={api} initial={route.query.get('policy') ?? undefined} />
        ) : route.path === '/exceptions/new' ? (
          <NewException api={api} session={session} />
        ) : exceptionMatch ? (
          <ExceptionDetail api={api} session={session} name={decodeURIComponent(exceptionMatch[1] ?? '')} />
        ) : route.path === '/exceptions' ? (
          <Exceptions api={api} session={session} />
        ) : route.path === '/policies' ? (
          <Policies api={api} session={session} />
        ) : route.path === '/try' ? (
          <TryIt api={api} session={session} />
        ) : route.path === '/recommendations' ? (
          <Recommendations api={api} />
        ) : route.path === '/tokens' ? (
          <Tokens api={api} session={session} />
        ) : (
          <Overview api={api} />
        )}
      </main>
    </>
  )
}

function isCurrent(path: string, screen: string): boolean {
  return screen === '/' ? path === '/' : path === screen || path.startsWith(`${screen}/`)
}
