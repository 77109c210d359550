import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'test-results/**', 'dist/**', 'packages/*/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  // Kysely's runtime comes from its CommonJS build, through one module (see src/store/db/kysely.ts).
  {
    files: ['**/*.ts'],
    ignores: ['src/store/db/kysely.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'kysely', allowTypeImports: true, message: "Import kysely's values from src/store/db/kysely.ts (types may come from 'kysely')." }] },
      ],
    },
  },
  // The dashboard's browser script.
  { files: ['src/web/public/**/*.js'], languageOptions: { globals: globals.browser, sourceType: 'script' } },
);
