import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'src/generated/', 'blog/.next/', 'blog/app/(payload)/', 'cms/migrations/', '.data/', 'test-artifacts/', '**/*.d.ts', 'packages/client/src/generated/', 'packages/client/dist/'] },
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
    // Settings are read in one place, src/config, whose schema the CMS and blog use too
    // (cms/settings.ts). Exceptions: Next's runtime flag where it acts, and next.config.mjs (read
    // by Next before any app code; BLOG_DIST_DIR is still declared in the schema).
    files: [
      'src/config/**',
      'cms/collections/BlogPosts/hooks/revalidate.ts',
      'blog/instrumentation.ts',
      'blog/next.config.mjs',
      'test/**',
      'bench/**',
      'scripts/**',
      'codegen.ts',
      'prisma.config.ts',
      'vitest*.ts',
      // the Node example is a program: its API_URL is its configuration
      'examples/node/**',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
);
