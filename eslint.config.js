import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  // own-holdout and own-holdout-2 to own-holdout-5 are data sets written apart from the code (like ../shared/authoring-devset), kept as its authors wrote it.
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test/authoring/own-holdout/**', 'test/authoring/own-holdout-2/**', 'test/authoring/own-holdout-3/**', 'test/authoring/own-holdout-4/**', 'test/authoring/own-holdout-5/**'] },
  js.configs.recommended,
  // Maintenance scripts run on Node directly.
  { files: ['scripts/**/*.mjs'], languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly' } } },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
)
