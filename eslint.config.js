import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  // own-holdout, own-holdout-2, own-holdout-3 and own-holdout-4 are data sets written apart from the code (like ../shared/authoring-devset), kept as its authors wrote it.
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test/authoring/own-holdout/**', 'test/authoring/own-holdout-2/**', 'test/authoring/own-holdout-3/**', 'test/authoring/own-holdout-4/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
)
