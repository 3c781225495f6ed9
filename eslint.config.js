import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import house from './eslint/house-rules.js'

export default tseslint.config(
  { ignores: ['dist/', '.data/', '.output/', 'node_modules/', 'app/routeTree.gen.ts', 'test-results/', 'playwright-report/', 'public/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, house },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'house/import-boundaries': 'error',
      'house/no-import-cycle': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
      // Matching control characters is what the text rules are for (NUL, C0 controls).
      'no-control-regex': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // A defensive first value before a try is clearer than a definite-assignment dance.
      'no-useless-assignment': 'off',
    },
  },
  {
    files: ['tests/**', 'scripts/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
)
