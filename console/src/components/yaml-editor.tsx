import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiError } from '../api/api-client.js'
import type { Session } from '../session.js'
import { lineOfError } from '../yaml-field-line.js'
import { ScopedButton } from './scoped-button.js'

/**
 * A definition as YAML (JSON is YAML too) in a text area, saved by `save`, which sends it to the
 * API as it is, so the API checks it as it checks any client's. An error it answers is shown on
 * the line it is about (lineOfError), with the caret moved there and the line selected.
 */
export function YamlEditor(props: {
  /** The text area's id; the error is `yaml-error` (one editor per screen). */
  id: string
  label: string
  initial: string
  session: Session
  scope: string
  saveLabel: string
  save: (text: string) => Promise<unknown>
  onSaved: () => void
  onCancel?: () => void
  /** Set false to keep the save button disabled (a required field elsewhere is empty). */
  ready?: boolean
}) {
  const [text, setText] = useState(props.initial)
  const [error, setError] = useState<{ line: number | undefined; message: string } | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const area = useRef<HTMLTextAreaElement>(null)
  // What the author typed is theirs: a reload of the definition underneath (a second answer, a poll) refreshes only an untouched editor.
  const edited = useRef(false)
  useEffect(() => {
    if (!edited.current) setText(props.initial)
  }, [props.initial])
  const save = async (): Promise<void> => {
    // What the text area holds now: a click that lands before the render after the last keystroke would save the text before it.
    const current = area.current?.value ?? text
    setError(undefined)
    setBusy(true)
    try {
      await props.save(current)
      // Saved: what is stored now is what the next reload brings.
      edited.current = false
      props.onSaved()
    } catch (failure) {
      const message = failure instanceof ApiError ? `${failure.error}: ${failure.details}` : String(failure)
      const line = failure instanceof ApiError ? lineOfError(current, failure.details) : undefined
      setError({ line, message })
      if (line !== undefined && area.current) {
        const start = current.split('\n').slice(0, line - 1).join('\n').length + (line > 1 ? 1 : 0)
        area.current.focus()
        area.current.setSelectionRange(start, start + (current.split('\n')[line - 1]?.length ?? 0))
      }
    } finally {
      setBusy(false)
    }
  }
  const lines = text.split('\n')
  return (
    <div class="yaml-editor">
      <label for={props.id}>{props.label}</label>
      <textarea id={props.id} ref={area} rows={Math.min(30, lines.length + 2)} spellcheck={false} value={text} onInput={(event) => {
          edited.current = true
          setText((event.target as HTMLTextAreaElement).value)
        }} />
      {error ? (
        <p class="error" role="alert" id="yaml-error" data-line={error.line}>
          {error.line === undefined ? '' : `Line ${error.line}: `}
          {error.message}
          {error.line === undefined ? null : (
            <>
              <br />
              <code>{lines[error.line - 1]}</code>
            </>
          )}
        </p>
      ) : null}
      <div class="actions">
        <ScopedButton session={props.session} scope={props.scope} kind="primary" busy={busy || props.ready === false} onClick={() => void save()}>
          {props.saveLabel}
        </ScopedButton>
        {props.onCancel ? (
          <button
            type="button"
            onClick={() => {
              edited.current = false
              setText(props.initial)
              setError(undefined)
              props.onCancel?.()
            }}
          >
            Cancel
          </button>
        ) : null}
      </div>
    </div>
  )
}
