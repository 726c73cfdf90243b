import { ApiError } from '../api/api-client.js'

/** An API error as the API words it: `error` and the `details` naming the field. */
export function ErrorBox(props: { error: unknown }) {
  if (props.error === undefined || props.error === null) return null
  const error = props.error
  const text = error instanceof ApiError ? `${error.status} ${error.error}: ${error.details}` : error instanceof Error ? error.message : String(error)
  return (
    <p class="error" role="alert">
      {text}
    </p>
  )
}
