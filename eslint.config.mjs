import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'e2e-artifacts/**', '.native/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: "Only electron/main.ts, electron/preload.ts and electron/desktop/native/ import 'electron'." },
            { name: 'electron-updater', message: 'It loads electron: only electron/desktop/native/ imports it.' },
          ],
        },
      ],
    },
  },
  {
    files: ['electron/main.ts', 'electron/preload.ts', 'electron/desktop/native/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['renderer/**/*.{ts,tsx,js}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Only tells that the React Compiler would skip a component (TanStack Virtual's hook); Drover
      // does not use the compiler, so the warning would be noise in every lint.
      'react-hooks/incompatible-library': 'off',
    },
  },
  {
    files: ['**/*.cjs', 'bin/drover'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
