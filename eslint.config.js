import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'src/generated/', 'blog/.next/', 'blog/app/(payload)/', 'cms/migrations/', '.data/', 'test-artifacts/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['**/*.mjs'], languageOptions: { globals: { process: 'readonly', URL: 'readonly', console: 'readonly' } } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Only src/config reads the environment.' }],
    },
  },
  {
    // Each app reads its environment in one place: src/config for the backend, cms/settings.ts for
    // the CMS and blog (the Next runtime flag and the schema-push switch are read where they act).
    files: [
      'src/config/**',
      'cms/settings.ts',
      'cms/payload.config.ts',
      'cms/collections/BlogPosts/hooks/revalidate.ts',
      'blog/next.config.mjs',
      'test/**',
      'bench/**',
      'scripts/**',
      'codegen.ts',
      'prisma.config.ts',
      'vitest*.ts',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
);
