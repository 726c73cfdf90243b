import { useState } from 'preact/hooks'

/** An action a button starts: whether it runs, and the error it ended with (cleared when it starts again). */
export function useAction(): { busy: boolean; error: unknown; run: (action: () => Promise<unknown>) => Promise<void> } {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(undefined)
  const run = async (action: () => Promise<unknown>): Promise<void> => {
    setBusy(true)
    setError(undefined)
    try {
      await action()
    } catch (failure) {
      setError(failure)
    } finally {
      setBusy(false)
    }
  }
  return { busy, error, run }
}
