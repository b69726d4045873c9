// compose.yaml read by Compose itself (Debian's docker-compose) and held against the built image.
// test/runtime/containers.test.ts checks the same file against the Compose schema, our roles and settings.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseRoles } from '../../src/roles';
import { buildImage, docker, IMAGE, needsContainers } from '../helpers/containers';

const run = needsContainers();
const exec = promisify(execFile);
const DEPLOYMENT = { POSTGRES_PASSWORD: 'pg-password', JWT_SECRET: 'j'.repeat(40), PAYLOAD_SECRET: 'payload-secret' };

const compose = (env: Record<string, string>, ...args: string[]) =>
  exec('docker-compose', ['--file', 'compose.yaml', ...args], { env: { NODE_ENV: 'production', PATH: process.env.PATH ?? '', ...env } });

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
}

describe.runIf(run)('compose.yaml, as Compose reads it', () => {
  let services: Record<string, Service>;
  let exposed: string[];

  beforeAll(async () => {
    const { stdout } = await compose(DEPLOYMENT, 'config');
    services = (parse(stdout) as { services: Record<string, Service> }).services;
    await buildImage();
    exposed = Object.keys(JSON.parse(await docker(['image', 'inspect', '--format', '{{json .Config.ExposedPorts}}', IMAGE])) as object);
  }, 900_000);

  it('is accepted with the deployment secrets, and refused naming the one that is missing', async () => {
    await expect(compose(DEPLOYMENT, 'config', '--quiet')).resolves.toBeDefined();
    const { POSTGRES_PASSWORD: _, ...withoutPassword } = DEPLOYMENT;
    await expect(compose(withoutPassword, 'config', '--quiet')).rejects.toThrow(/POSTGRES_PASSWORD/);
  });

  it('runs every platform service from the one image, on a port the image exposes, with a health check on that port', () => {
    const platform = Object.entries(services).filter(([, s]) => s.build !== undefined);
    expect(platform.length).toBeGreaterThanOrEqual(5);
    for (const [name, service] of platform) {
      expect(service.image, name).toBe(IMAGE.split(':')[0]);
      const role = [...parseRoles(service.command ?? [])][0];
      const env = service.environment ?? {};
      // The port the role serves (and its health check asks): the API's, the blog's, the workers' health port.
      const port = role === 'api' ? env.GENERAL_PORT : role === 'blog' ? env.BLOG_PORT : env.HEALTH_PORT;
      expect(port, `${name} (${role}) listens on a set port`).toBeDefined();
      for (const listens of [port, env.HEALTH_PORT].filter(Boolean)) expect(exposed, `${name}'s port ${listens}`).toContain(`${listens}/tcp`);
      const probe = service.healthcheck?.test.join(' ') ?? '';
      const url = /http:\/\/127\.0\.0\.1:(\d+)(\/[^'"]*)/.exec(probe);
      expect(url?.[1], `${name}'s health check port`).toBe(port);
      const path = url?.[2] ?? '';
      expect(role === 'blog' ? path.startsWith('/blog/') : path === '/api/health/ready', `${name}'s health check path ${path}`).toBe(true);
    }
  });
});
