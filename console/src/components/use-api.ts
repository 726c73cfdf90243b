import { useEffect, useState } from 'preact/hooks'

/** What useLoad gives: the value, the error, and a reload. */
export interface Loaded<T> {
  value: T | undefined
  error: unknown
  loading: boolean
  reload: () => void
}

/** Loads once per `key`. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ value: T | undefined; error: unknown; loading: boolean }>({ value: undefined, error: undefined, loading: true })
  const [generation, setGeneration] = useState(0)
  useEffect(() => {
    let current = true
    setState((previous) => ({ ...previous, loading: true }))
    load().then(
      (value) => current && setState({ value, error: undefined, loading: false }),
      (error: unknown) => current && setState({ value: undefined, error, loading: false }),
    )
    return () => {
      current = false
    }
    // `key` says when to load again; `load` is a new closure each render.
  }, [key, generation])
  return { ...state, reload: () => setGeneration((value) => value + 1) }
}
