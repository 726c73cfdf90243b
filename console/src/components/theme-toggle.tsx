import { useState } from 'preact/hooks'

const THEME_KEY = 'verdict.theme'
type Theme = 'light' | 'dark' | 'system'

/** Light, dark, or the system's; the choice is kept in localStorage (not a secret). */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(() => apply((localStorage.getItem(THEME_KEY) as Theme | null) ?? 'system'))
  const next: Record<Theme, Theme> = { system: 'light', light: 'dark', dark: 'system' }
  return (
    <button
      type="button"
      aria-label={`theme: ${theme}; switch to ${next[theme]}`}
      onClick={() => {
        const chosen = next[theme]
        localStorage.setItem(THEME_KEY, chosen)
        setTheme(apply(chosen))
      }}
    >
      Theme: {theme}
    </button>
  )
}

function apply(theme: Theme): Theme {
  if (theme === 'system') delete document.documentElement.dataset.theme
  else document.documentElement.dataset.theme = theme
  return theme
}
