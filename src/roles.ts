export const ROLES = ['api', 'indexer', 'jobs', 'blog'] as const;
export type Role = (typeof ROLES)[number];

/** `--role api|indexer|jobs|blog|all` (repeatable or comma-separated); default `all`. */
export function parseRoles(argv: string[]): Set<Role> {
  const picked: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--role') picked.push(...(argv[++i] ?? '').split(','));
    else if (arg.startsWith('--role=')) picked.push(...arg.slice('--role='.length).split(','));
  }
  if (picked.length === 0 || picked.includes('all')) return new Set(ROLES);
  const unknown = picked.filter((r) => !(ROLES as readonly string[]).includes(r));
  if (unknown.length) throw new Error(`Unknown role(s): ${unknown.join(', ')}. Use one of: ${[...ROLES, 'all'].join(', ')}`);
  return new Set(picked as Role[]);
}
