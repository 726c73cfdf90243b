import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.js'
import type { Evaluation } from '../api/types.js'
import { ErrorBox } from '../components/error-box.js'
import { ResultsTable } from '../components/results-table.js'
import { ScopedButton } from '../components/scoped-button.js'
import { useAction } from '../components/use-action.js'
import { targetPath, useTargets } from '../components/use-targets.js'
import type { Session } from '../session.js'
import { follow } from '../router.js'

/** A document judged by a policy or ruleset through the evaluation routes, which write an audit. */
export function TryIt(props: { api: ApiClient; session: Session }) {
  const { api } = props
  const targets = useTargets(api)
  const [target, setTarget] = useState('')
  const [document, setDocument] = useState('')
  const [answer, setAnswer] = useState<Evaluation | undefined>(undefined)
  const { busy, error, run } = useAction()
  const chosen = target || targets.value?.[0] || ''
  const evaluate = (): Promise<void> =>
    run(async () => {
      setAnswer(undefined)
      setAnswer(await api.request<Evaluation>(`/api/eval/${targetPath(chosen)}`, { method: 'POST', text: evaluationBody(document) }))
    })
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
          {answer.disabled ? <p class="notice switched-off-note">The policy is switched off ({answer.disabledReason}): it judged nothing.</p> : null}
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
