import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'src/generated/', 'blog/', 'cms/', '.data/', 'test-artifacts/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Only src/config reads the environment.' }],
    },
  },
  {
    files: ['src/config/**', 'test/**', 'bench/**', 'scripts/**', 'codegen.ts', 'prisma.config.ts', 'vitest*.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
