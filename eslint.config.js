// ESLint flat config: typescript-eslint's recommended rules for the sources, tests, examples, benchmarks and scripts.
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');

module.exports = tseslint.config(
  { ignores: ['lib/**', 'dist/**', 'node_modules/**', 'scratch/**', 'coverage/**', 'test/.readme/**', 'API.md'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly' },
    },
    rules: {
      // Manifests are plain, untyped JSON by nature; rules and coverage work on `any` deliberately.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      'no-constant-condition': ['error', { checkLoops: false }],
      // Public factories check their `arguments` at the boundary (checkArguments): a rest parameter would change the
      // signature that TypeScript and jsii callers see.
      'prefer-rest-params': 'off',
    },
  },
);
