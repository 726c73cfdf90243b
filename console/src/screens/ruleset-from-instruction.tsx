import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.js'
import { ErrorBox } from '../components/error-box.js'
import { ScopedButton } from '../components/scoped-button.js'
import { useAction } from '../components/use-action.js'
import { useLoad } from '../components/use-api.js'
import { useDebounced } from '../components/use-debounced.js'
import { navigate } from '../router.js'
import type { Session } from '../session.js'
import { TableHead } from '../components/table-head.js'

interface PromptCheck {
  valid: boolean
  issues: { code: string; message: string }[]
  sentences: { text: string; role: string; became: string }[]
}

interface Hints {
  templates: { id: string; title: string; examples: string[]; platform: string; kinds: string[]; missing: unknown[] }[]
}

interface Sample {
  label: string
  kind: string
  description: string
  document: unknown
  passed: boolean
  failedRules: string[]
}

interface DryRun {
  name: string
  description?: string
  rules: { name: string; severity?: string; message?: string; description?: string }[]
}

/**
 * A ruleset from plain English: the prompt check and the hints follow the text as it is typed,
 * the dry run shows the rules each sentence became, the samples show documents the compiled rules
 * really pass and fail, and save stores it (POST /api/rulesets/{name} with the instruction).
 */
export function RulesetFromInstruction(props: { api: ApiClient; session: Session }) {
  const { api, session } = props
  const [name, setName] = useState('')
  const [instruction, setInstruction] = useState('')
  const settled = useDebounced(instruction.trim(), 400)
  const check = useLoad(async () => (settled === '' ? undefined : api.request<PromptCheck>('/api/prompt', { method: 'POST', body: { instruction: settled } })), `prompt:${settled}`)
  const hints = useLoad(async () => (settled === '' ? undefined : api.request<Hints>('/api/hints/ruleset', { method: 'POST', body: { instruction: settled } })), `hints:${settled}`)
  const [dryRun, setDryRun] = useState<{ ruleset: DryRun; samples: Sample[] } | undefined>(undefined)
  const { busy, error, run } = useAction()
  const target = hints.value?.templates[0]
  const submit = (save: boolean): Promise<void> =>
    run(async () => {
      const path = `/api/rulesets/${encodeURIComponent(name)}`
      if (save) {
        await api.request(path, { method: 'POST', body: { instruction } })
        navigate(`/rulesets/${encodeURIComponent(name)}`)
        return
      }
      const ruleset = await api.request<DryRun>(path, { method: 'POST', query: { dryRun: true }, body: { instruction } })
      const samples = target
        ? (await api.request<{ samples: Sample[] }>('/api/samples', { method: 'POST', body: { category: target.platform, type: target.kinds[0] ?? 'Pod', instruction } })).samples
        : []
      setDryRun({ ruleset, samples })
    })
  return (
    <section aria-labelledby="new-ruleset-title">
      <h1 id="new-ruleset-title">New ruleset from an instruction</h1>
      <form
        class="stacked"
        onSubmit={(event) => {
          event.preventDefault()
          void submit(false)
        }}
      >
        <label for="ruleset-name">Name</label>
        <input id="ruleset-name" value={name} onInput={(event) => setName((event.target as HTMLInputElement).value)} placeholder="pod-hardening" required />
        <label for="ruleset-instruction">Instruction</label>
        <textarea id="ruleset-instruction" rows={5} value={instruction} onInput={(event) => setInstruction((event.target as HTMLTextAreaElement).value)} placeholder="Containers must not run as privileged. Images must come from registry.acme.io." />
        <div class="actions">
          <ScopedButton session={session} scope="rulesets:write" busy={busy || name === '' || instruction.trim() === ''} onClick={() => void submit(false)}>
            Dry run
          </ScopedButton>{' '}
          <ScopedButton session={session} scope="rulesets:write" kind="primary" busy={busy || name === '' || check.value?.valid !== true} onClick={() => void submit(true)}>
            Save
          </ScopedButton>
        </div>
      </form>
      <ErrorBox error={error} />
      <div class="authoring">
        <div>
          <h2>Check</h2>
          <ErrorBox error={check.error} />
          {check.value ? (
            <div id="prompt-check" data-valid={String(check.value.valid)}>
              <p class={check.value.valid ? 'status-pass' : 'status-fail'}>{check.value.valid ? 'Understood.' : 'Not yet a ruleset:'}</p>
              <ul class="plain">
                {check.value.issues.map((issue) => (
                  <li key={issue.code + issue.message}>{issue.message}</li>
                ))}
              </ul>
              <h3>Sentence by sentence</h3>
              <ol id="interpretation">
                {check.value.sentences.map((sentence) => (
                  <li key={sentence.text}>
                    <q>{sentence.text}</q> → {sentence.became}
                  </li>
                ))}
              </ol>
            </div>
          ) : (
            <p class="hint">Type an instruction: it is checked as you type.</p>
          )}
        </div>
        <div>
          <h2>Hints</h2>
          <ul class="plain" id="hints">
            {(hints.value?.templates ?? []).slice(0, 5).map((template) => (
              <li key={template.id}>
                <strong>{template.title}</strong> <span class="tag">{template.kinds.join(', ')}</span>
                <br />
                <span class="hint">e.g. “{template.examples[0]}”</span>
              </li>
            ))}
          </ul>
        </div>
      </div>
      {dryRun ? (
        <div id="dry-run">
          <h2>Rules (dry run, nothing stored)</h2>
          <table>
            <TableHead columns={['Rule', 'Severity', 'Message']} />
            <tbody>
              {dryRun.ruleset.rules.map((rule) => (
                <tr key={rule.name}>
                  <td>{rule.name}</td>
                  <td>{rule.severity ?? ''}</td>
                  <td>{rule.message ?? rule.description ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h2>Samples, judged by these rules</h2>
          <div class="samples">
            {dryRun.samples.map((sample, index) => (
              <details key={index} class="sample" data-label={sample.label} data-passed={String(sample.passed)}>
                <summary>
                  <span class={`status status-${sample.passed ? 'pass' : 'fail'}`}>{sample.passed ? 'passes' : `fails ${sample.failedRules.join(', ')}`}</span> — {sample.label}: {sample.description}
                </summary>
                <pre class="document">{JSON.stringify(sample.document, null, 2)}</pre>
              </details>
            ))}
          </div>
        </div>
      ) : null}
    </section>
  )
}
