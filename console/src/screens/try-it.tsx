import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.js'
import type { Evaluation, PolicyDefinition, RulesetDefinition } from '../api/types.js'
import { ErrorBox } from '../components/error-box.js'
import { ResultsTable } from '../components/results-table.js'
import { ScopedButton } from '../components/scoped-button.js'
import { useLoad } from '../components/use-api.js'
import type { Session } from '../session.js'
import { follow } from './overview.js'

/** A document judged by a policy or ruleset through the evaluation routes, which write an audit. */
export function TryIt(props: { api: ApiClient; session: Session }) {
  const { api } = props
  const targets = useLoad(async () => {
    const [{ policies }, { rulesets }] = await Promise.all([
      api.request<{ policies: PolicyDefinition[] }>('/api/policies'),
      api.request<{ rulesets: RulesetDefinition[] }>('/api/rulesets'),
    ])
    return [...policies.map((policy) => `policies/${policy.name}`), ...rulesets.map((ruleset) => `rulesets/${ruleset.name}`)]
  }, 'targets')
  const [target, setTarget] = useState('')
  const [document, setDocument] = useState('')
  const [answer, setAnswer] = useState<Evaluation | undefined>(undefined)
  const [error, setError] = useState<unknown>(undefined)
  const [busy, setBusy] = useState(false)
  const chosen = target || targets.value?.[0] || ''
  const evaluate = async (): Promise<void> => {
    setBusy(true)
    setError(undefined)
    setAnswer(undefined)
    try {
      const [kind, ...rest] = chosen.split('/')
      const path = `/api/eval/${kind}/${encodeURIComponent(rest.join('/'))}`
      setAnswer(await api.request<Evaluation>(path, { method: 'POST', text: evaluationBody(document) }))
    } catch (failure) {
      setError(failure)
    } finally {
      setBusy(false)
    }
  }
  return (
    <section aria-labelledby="try-title">
      <h1 id="try-title">Try it</h1>
      <p class="notice">Evaluating writes an audit, as every evaluation through the API does.</p>
      <ErrorBox error={targets.error} />
      <form
        onSubmit={(event) => {
          event.preventDefault()
          void evaluate()
        }}
      >
        <label for="try-target">Policy or ruleset</label>
        <select id="try-target" value={chosen} onChange={(event) => setTarget((event.target as HTMLSelectElement).value)}>
          {(targets.value ?? []).map((entry) => (
            <option key={entry} value={entry}>
              {entry.replace('/', ': ')}
            </option>
          ))}
        </select>
        <label for="try-document">Manifest (YAML) or JSON document</label>
        <textarea id="try-document" rows={16} spellcheck={false} value={document} onInput={(event) => setDocument((event.target as HTMLTextAreaElement).value)} />
        <ScopedButton session={props.session} scope="eval" kind="primary" onClick={() => void evaluate()} busy={busy || chosen === '' || document.trim() === ''}>
          Evaluate
        </ScopedButton>
      </form>
      <ErrorBox error={error} />
      {answer ? (
        <div class="verdict" data-passed={String(answer.passed)}>
          <h2>{answer.passed ? 'Passed' : 'Failed'}</h2>
          <p>
            Audit{' '}
            <a href={`/ui/audits/${encodeURIComponent(answer.requestId)}`} onClick={(event) => follow(event, `/audits/${encodeURIComponent(answer.requestId)}`)}>
              {answer.requestId}
            </a>{' '}
            — open it for the remediation of each failure.
          </p>
          <ResultsTable results={answer.results} />
        </div>
      ) : null}
    </section>
  )
}

/**
 * The document as the evaluation routes take it, `{inputData: ...}`, in the format it was pasted in:
 * JSON wrapped as JSON, a YAML manifest indented under `inputData:` (the service parses YAML), so
 * the console needs no YAML parser of its own and the API's own errors name what is wrong.
 */
export function evaluationBody(document: string): { body: string; contentType: string } {
  const trimmed = document.trim()
  if (trimmed.startsWith('{')) return { body: `{"inputData":${trimmed}}`, contentType: 'application/json' }
  const lines = document.replace(/^(---\s*\n)/, '').split('\n')
  return { body: `inputData:\n${lines.map((line) => `  ${line}`).join('\n')}\n`, contentType: 'application/yaml' }
}
