import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import type { Config } from '../config';
import type { Role } from '../roles';
import { StartupProblem } from './startup-problem';

interface PortUse {
  port: number;
  host?: string;
  setting: string;
}

/** The ports this process's roles will listen on (GENERAL.PORT 0 means any port: nothing to check). */
function portsToCheck(config: Config, roles: ReadonlySet<Role>): PortUse[] {
  const uses: PortUse[] = [];
  if (roles.has('api') && config.http.port !== 0) uses.push({ port: config.http.port, host: config.http.host, setting: 'GENERAL_PORT' });
  if (!roles.has('api') && config.http.healthPort !== undefined && config.http.healthPort !== 0) uses.push({ port: config.http.healthPort, host: config.http.host, setting: 'HEALTH_PORT' });
  // `next start` listens on every address.
  if (roles.has('blog')) uses.push({ port: config.blog.port, setting: 'BLOG_PORT' });
  return uses;
}

/**
 * Before anything starts: each port this process will listen on must be free, or it stops at once
 * naming the port, its holder when `ss` can tell, and the settings to change — instead of failing
 * later, after the blog process has started and met the first instance's blog.
 */
export async function checkPortsFree(config: Config, roles: ReadonlySet<Role>): Promise<void> {
  const taken: string[] = [];
  for (const use of portsToCheck(config, roles)) {
    const error = await tryListen(use);
    if (!error) continue;
    const where = `${use.host ?? 'every address'}:${use.port}`;
    if (error === 'EADDRINUSE') taken.push(`Port ${use.port} (${use.setting}) is already in use on ${where}, by ${await holderOf(use.port)}.`);
    else taken.push(`Port ${use.port} (${use.setting}) cannot be listened on at ${where}: ${error}.`);
  }
  if (taken.length === 0) return;
  throw new StartupProblem(
    [
      ...taken,
      'Another instance is probably running: stop it, or give this one other ports:',
      '  GENERAL_PORT=3100 APP_URL=http://localhost:3100 BLOG_PORT=3101 npm start',
      '(APP_URL follows GENERAL_PORT: the login message and links are built from it.)',
    ].join('\n'),
  );
}

function tryListen({ port, host }: PortUse): Promise<string | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(null)));
  });
}

/** `node (pid 1234)` from `ss -ltnp` (processes of other users show no pid), else "another process". */
function holderOf(port: number): Promise<string> {
  return new Promise((resolve) => {
    execFile('ss', ['-Hltnp', `sport = :${port}`], { timeout: 1000 }, (err, stdout) => {
      const holder = err ? null : /users:\(\("([^"]+)",pid=(\d+)/.exec(stdout);
      resolve(holder ? `${holder[1]} (pid ${holder[2]})` : 'another process (ss did not say which)');
    });
  });
}
