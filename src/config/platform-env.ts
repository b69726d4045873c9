/**
 * The platform's NODE_ENV, handed to every process it starts. Frameworks set NODE_ENV for
 * themselves (`next start` runs with NODE_ENV=production even on a development machine), so the
 * parent decides "production" once, from its settings, and its children read this variable
 * instead (loadConfig does): a development-only setting works under `npm start` and stays
 * ignored with NODE_ENV=production. Not a setting for operators: set NODE_ENV.
 */
export const PLATFORM_NODE_ENV = 'PLATFORM_NODE_ENV';

/** What a child process needs on top of its environment to see the settings as this process does. */
export function childProcessEnv(config: { nodeEnv: string }): Record<string, string> {
  return { [PLATFORM_NODE_ENV]: config.nodeEnv };
}

/** The environment as the platform that started this process saw it: its NODE_ENV restored. */
export function withPlatformNodeEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const platform = env[PLATFORM_NODE_ENV]?.trim();
  return platform ? { ...env, NODE_ENV: platform } : env;
}
