import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/** Browser code (pages, layouts, components, dashboards, lib) never imports the server. */
const browserMayNotImportServer = {
  patterns: [
    { regex: '^#server/|/server/', message: 'Browser code never imports src/server (DESIGN.md).' },
  ],
};

/** The server imports only src/lib/schemas, src/lib/format and src/lib/money from the browser side. */
const serverMayImportOnlySchemasAndFormat = {
  patterns: [
    {
      regex: '^#lib/(?!schemas/|format\\.ts$|money\\.ts$|markdown\\.ts$)|/lib/(?!schemas/|format\\.ts$|money\\.ts$|markdown\\.ts$)',
      message: 'The server imports only #lib/schemas/*, #lib/format.ts, #lib/money.ts and #lib/markdown.ts from the browser side.',
    },
  ],
};

/** The domain never imports a door (api, hub, jobs), Fastify or an adapter implementation. */
const domainMayNotImportDoors = {
  patterns: [
    ...serverMayImportOnlySchemasAndFormat.patterns,
    { group: ['**/api/*', '**/hub/*', '**/jobs/*', 'fastify', '@fastify/*'], message: 'The domain never imports a door or Fastify.' },
    { group: ['**/adapters/*', '!**/adapters/types.ts'], message: 'The domain uses adapters through their interface only.' },
  ],
};

export default tseslint.config(
  { ignores: ['dist/', 'data/', '.astro/', 'node_modules/', 'test-results/', 'playwright-report/', 'src/server/db/migrations/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  {
    files: ['src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: ['src/pages/**', 'src/layouts/**', 'src/components/**', 'src/dashboards/**', 'src/lib/**'],
    rules: { 'no-restricted-imports': ['error', browserMayNotImportServer] },
  },
  {
    files: ['src/server/**'],
    rules: { 'no-restricted-imports': ['error', serverMayImportOnlySchemasAndFormat] },
  },
  {
    files: ['src/server/domain/**'],
    rules: { 'no-restricted-imports': ['error', domainMayNotImportDoors] },
  },
  {
    files: ['src/server/db/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...serverMayImportOnlySchemasAndFormat.patterns,
            { group: ['**/domain/*', '**/api/*', '**/jobs/*', '**/hub/*'], message: 'The database layer imports nothing above it.' },
          ],
        },
      ],
    },
  },
);
