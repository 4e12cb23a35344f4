// The repository's lint rules (`npm run lint`, run first by `npm test`). Prettier owns layout; ESLint owns
// correctness and size: files of at most 300 lines, functions of at most 60, lines of at most 120 characters
// where Prettier cannot break them (long strings and URLs excepted).
//
// Linting is syntactic only. Type-aware rules (no-floating-promises) need a TypeScript program per
// package and made a lint run about four times slower, so they are left to review.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { functionSize } from './scripts/lint/function-size.mjs';

const SIZE = { skipBlankLines: true, skipComments: true };

export default defineConfig(
  {
    ignores: ['**/dist/', '**/node_modules/', '**/fixtures/', '.pack/', 'coverage/', 'examples/**/output*/'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: globals.node },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { agentest: { rules: { 'function-size': functionSize } } },
    rules: {
      'max-lines': ['error', { max: 300, ...SIZE }],
      'agentest/function-size': ['error', { max: 60, ...SIZE }],
      'max-len': [
        'error',
        { code: 120, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true },
      ],
      // A leading underscore marks a value kept on purpose: a destructured field left out, an unused parameter.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // `any` is left to review: tapable's hook generics and matcher signatures need it where `unknown` cannot go.
      '@typescript-eslint/no-explicit-any': 'off',
      // `z` as a value is zod's whole namespace: the bundle then keeps every module of it (all ~50 locales, 740 KB
      // that each run compiles). `import * as z from 'zod'` lets esbuild keep only what is used (200 KB).
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "ImportDeclaration[source.value='zod'] > :matches(ImportSpecifier[imported.name='z'], ImportDefaultSpecifier)",
          message: "Write `import * as z from 'zod'`.",
        },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-var': 'error',
      'prefer-const': 'error',
    },
  },
  {
    // Tests of terminal output and escaping: control characters are the data, and a layout test matches the
    // text as printed, spaces and all.
    files: ['**/test/**', 'e2e/**'],
    rules: { 'no-control-regex': 'off', 'no-regex-spaces': 'off' },
  },
  {
    // The HTML report's script runs in the browser.
    files: ['packages/reporter-html/assets/**/*.js'],
    languageOptions: { sourceType: 'script', globals: globals.browser },
  },
  {
    // Yao scripts: the runtime calls their top-level functions by name and passes untyped contexts, and
    // their tests use Yao's global types (`testing.T`, `agent.Context`), which TypeScript does not know.
    files: ['examples/app/assistants/*/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^[A-Z]', args: 'none' }],
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-nocheck': false }],
    },
  },
);
