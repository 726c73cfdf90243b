import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  // own-holdout is a data set written apart from the code (like ../shared/authoring-devset), kept as its authors wrote it.
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test/authoring/own-holdout/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
)
