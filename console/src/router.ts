import { useEffect, useState } from 'preact/hooks'

/** The console lives under /ui/; the service answers index.html for any path below it. */
export const BASE = '/ui'

const listeners = new Set<() => void>()

export function navigate(path: string): void {
  history.pushState(null, '', `${BASE}${path}`)
  for (const listener of listeners) listener()
}

/** An in-console link followed by the router, not a page load; a modified click (new tab, window) is the browser's. */
export function follow(event: MouseEvent, path: string): void {
  if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return
  event.preventDefault()
  navigate(path)
}

/** The path below /ui/ ('/audits', '/rulesets/pss') and the query, following navigation and the back button. */
export function useRoute(): { path: string; query: URLSearchParams } {
  const [location, setLocation] = useState(() => current())
  useEffect(() => {
    const update = (): void => setLocation(current())
    listeners.add(update)
    addEventListener('popstate', update)
    return () => {
      listeners.delete(update)
      removeEventListener('popstate', update)
    }
  }, [])
  return location
}

function current(): { path: string; query: URLSearchParams } {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname
  return { path: path === '' ? '/' : path, query: new URLSearchParams(location.search) }
}
