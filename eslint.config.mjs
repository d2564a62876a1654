// Lint is mostly about boundaries (design.md): services never import each
// other, libs never import apps, and tests/tools stay out of production code.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.data/**', '.nx/**', 'coverage/**', 'libs/sdk/src/generated/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: [
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            // Clients of the HTTP API that people run beside their tools (apps/mcp), not deployed with the platform.
            { sourceTag: 'type:client', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib'] },
          ],
        },
      ],
    },
  },
  {
    // Production code never pulls in the test harness; specs beside it may (network adapters are specified against
    // the fake networks of libs/testing, libs/platform against real servers it starts). Checked per import, not
    // through Nx's graph, which counts a spec's imports as the whole project's and would make every app depend on it.
    files: ['apps/*/src/**/*.ts', 'apps/*/src/**/*.tsx', 'libs/*/src/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.conformance.ts', '**/*.e2e-spec.ts', 'apps/gateway-e2e/**', 'libs/testing/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: '@social/testing', message: 'The test harness is for specs only.' }] }],
    },
  },
);
