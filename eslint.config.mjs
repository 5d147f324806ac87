// ESLint for every layer (typescript-eslint with type information from each layer's own tsconfig).
// The rules are the ones that find bugs, not taste: formatting is Prettier's (.prettierrc.json).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.test-artifacts/**', 'scripts/*.d.mts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // The build, test and bench scripts: plain ES modules run by Node.
  {
    files: ['**/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        performance: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        setImmediate: 'readonly',
        queueMicrotask: 'readonly',
        structuredClone: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        URLSearchParams: 'readonly',
        window: 'readonly',
        document: 'readonly',
        requestAnimationFrame: 'readonly',
        PerformanceObserver: 'readonly',
      },
    },
  },
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A promise nobody awaits or marks `void` loses its failure: the bug class this lint is here for.
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test runs what describe() and test() return; nothing is lost there.
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'test', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      // A message type added to a union (the page's and the host's protocol, a turn's events) must be handled
      // wherever that union is switched on, or the switch must say what the rest do (a default).
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // A `let` declared before the closure that reads it and set once after is fine as it is.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Control characters in patterns are on purpose: they are what the terminal and the page are escaped from.
      'no-control-regex': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // On Node 20 a garbage collection takes such a timeout away and the combined signal never aborts.
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.object.name='AbortSignal'][callee.property.name='any'] CallExpression[callee.object.name='AbortSignal'][callee.property.name='timeout']",
          message: 'AbortSignal.any with AbortSignal.timeout never aborts after a GC on Node 20: use deadline() from src/node/deadline.ts',
        },
      ],
    },
  },
);
