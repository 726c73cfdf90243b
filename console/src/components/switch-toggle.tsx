import { useState } from 'preact/hooks'
import type { Session } from '../session.js'
import { ScopedButton } from './scoped-button.js'

/**
 * The switch of a policy or a rule (`enabled: false` with a `disabledReason`): on, or off saying
 * why. Switching off asks for the reason first, as the API requires one; switching on clears it.
 */
export function SwitchToggle(props: {
  session: Session
  scope: string
  /** What is switched, for the controls' names: `policy production`, `rule no-latest`. */
  label: string
  enabled: boolean
  disabledReason: string | undefined
  /** Writes the switch; true when the API took it (the caller shows its error otherwise). */
  onSwitch: (reason: string | undefined) => Promise<boolean>
}) {
  const [asking, setAsking] = useState(false)
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const change = async (next: string | undefined): Promise<void> => {
    setBusy(true)
    try {
      if (await props.onSwitch(next)) {
        setAsking(false)
        setReason('')
      }
    } finally {
      setBusy(false)
    }
  }
  if (!props.enabled) {
    return (
      <span class="switch" data-enabled="false">
        <span class="tag switched-off">off</span> <span class="reason">{props.disabledReason ?? ''}</span>{' '}
        <ScopedButton session={props.session} scope={props.scope} busy={busy} onClick={() => void change(undefined)}>
          Switch on
        </ScopedButton>
      </span>
    )
  }
  if (!asking) {
    return (
      <span class="switch" data-enabled="true">
        <span class="tag">on</span>{' '}
        <ScopedButton session={props.session} scope={props.scope} onClick={() => setAsking(true)}>
          Switch off
        </ScopedButton>
      </span>
    )
  }
  return (
    <form
      class="switch-off"
      onSubmit={(event) => {
        event.preventDefault()
        if (reason.trim() !== '') void change(reason.trim())
      }}
    >
      <input aria-label={`Why switch off ${props.label}`} placeholder="why (required)" value={reason} required onInput={(event) => setReason((event.target as HTMLInputElement).value)} />
      <ScopedButton session={props.session} scope={props.scope} kind="danger" busy={busy || reason.trim() === ''} onClick={() => void change(reason.trim())}>
        {`Switch off ${props.label}`}
      </ScopedButton>
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </form>
  )
}

/** A definition with its switch set: `enabled: false` and the reason, or neither (on is the default). */
export function switched<T extends Record<string, unknown>>(definition: T, reason: string | undefined): Record<string, unknown> {
  const { enabled: _enabled, disabledReason: _reason, ...rest } = definition
  return reason === undefined ? rest : { ...rest, enabled: false, disabledReason: reason }
}
