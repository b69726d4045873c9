import type { Role } from '../roles';

/** The start-up banner: the roles and every address a developer opens, printed once all of them answer. */
export function readyBanner(roles: ReadonlySet<Role>, urls: readonly string[]): string {
  return `\nReady. Running roles: ${[...roles].join(', ')}\n${urls.map((u) => `  ${u}`).join('\n')}\n\n`;
}
