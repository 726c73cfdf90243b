import { useEffect, useState } from 'preact/hooks'

/** The value once it has stayed the same for `ms`: what is checked as the user types, without a request per key. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}
