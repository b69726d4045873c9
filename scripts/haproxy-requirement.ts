// start:cluster's edge is the system's HAProxy: on a machine without it (or with one too old for
// the rendered config) the start says what to install instead of a supervisor crash loop of `spawn haproxy ENOENT`.
import { spawnSync } from 'node:child_process';

/** The rendered config (scripts/haproxy-config.ts) is written for Debian 12's HAProxy. */
export const HAPROXY_MIN_VERSION = [2, 6] as const;

const INSTALL = [
  'Install it, then start again:',
  '  Debian/Ubuntu: sudo apt-get install haproxy   (Debian 12 ships 2.6; on older releases use haproxy.debian.net)',
  '  Fedora/RHEL:   sudo dnf install haproxy',
  '  macOS:         brew install haproxy',
].join('\n');

/** Why the installed HAProxy cannot run the edge, or null when it can. */
export function haproxyProblem(): string | null {
  const probe = spawnSync('haproxy', ['-v'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    return `start:cluster runs HAProxy ${HAPROXY_MIN_VERSION.join('.')} or newer as its edge, and no \`haproxy\` was found on PATH.\n${INSTALL}`;
  }
  const found = /HAProxy version (\d+)\.(\d+)/.exec(probe.stdout);
  const [major, minor] = found ? [Number(found[1]), Number(found[2])] : [0, 0];
  const [needMajor, needMinor] = HAPROXY_MIN_VERSION;
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return null;
  return `start:cluster needs HAProxy ${HAPROXY_MIN_VERSION.join('.')} or newer for its edge; \`haproxy -v\` says: ${probe.stdout.split('\n')[0] || 'no version'}.\n${INSTALL}`;
}
