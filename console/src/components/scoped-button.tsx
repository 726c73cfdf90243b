import type { ComponentChildren } from 'preact'
import { holds, type Session } from '../session.js'

/** A button for an action the API guards with `scope`: disabled, naming the scope, when the token lacks it. */
export function ScopedButton(props: { session: Session; scope: string; onClick: () => void; children: ComponentChildren; kind?: 'primary' | 'danger'; busy?: boolean }) {
  const allowed = holds(props.session, props.scope)
  return (
    <button
      type="button"
      class={props.kind ?? ''}
      disabled={!allowed || props.busy === true}
      title={allowed ? undefined : `needs the scope ${props.scope}`}
      aria-disabled={!allowed}
      data-needs-scope={allowed ? undefined : props.scope}
      onClick={props.onClick}
    >
      {props.children}
      {allowed ? null : <span class="scope-note"> (needs {props.scope})</span>}
    </button>
  )
}
