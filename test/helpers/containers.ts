/**
 * The image built from ./Dockerfile and containers run from it, for test/containers/: Docker on the host
 * network (this machine's engine has no bridge: deploy/docker/dockerd-local.sh), the base image made
 * by deploy/docker/local-base.sh where no registry is reachable. Every container is named with this
 * process's prefix and removed by `removeAll()`.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { testEnv } from './env';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
export const IMAGE = 'platform-backend:test';
const PREFIX = `platform-test-${process.pid}-`;

/** Why containers cannot run here, or null when they can. */
export function containerRuntimeProblem(): string | null {
  const info = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8' });
  if (info.error) return 'no docker client on PATH (apt-get install docker.io)';
  if (info.status !== 0) return `no Docker engine answers (${info.stderr.trim().split('\n')[0]}); deploy/docker/dockerd-local.sh starts one`;
  return null;
}

/**
 * For container suites: true to run. They need real PostgreSQL and Redis (the containers share the
 * host's) and a Docker engine; without them the suite is skipped with the reason, or under
 * REQUIRE_SERVICES=1 the run fails.
 */
export function needsContainers(): boolean {
  const problem = !testEnv.databaseUrl || !testEnv.redisUrl ? 'DATABASE_URL and SHARED_STORE_URL are not both set' : containerRuntimeProblem();
  if (problem && testEnv.requireServices) throw new Error(`REQUIRE_SERVICES=1 but containers cannot run: ${problem}`);
  if (problem) console.warn(`container tests skipped: ${problem}`);
  return problem === null;
}

export async function docker(args: string[], timeoutMs = 60_000): Promise<string> {
  const { stdout } = await run('docker', args, { cwd: ROOT, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim();
}

export interface BuiltImage {
  tag: string;
  base: string;
  seconds: number;
  bytes: number;
  baseBytes: number;
}

let building: Promise<BuiltImage> | undefined;

/** Builds the image (Docker's layer cache makes a build of unchanged sources a few seconds). */
export function buildImage(): Promise<BuiltImage> {
  building ??= (async () => {
    const base = (await run('bash', [path.join(ROOT, 'deploy/docker/local-base.sh')], { cwd: ROOT, timeout: 600_000 })).stdout.trim().split('\n').pop()!;
    const started = Date.now();
    await new Promise<void>((resolve, reject) => {
      const output: string[] = [];
      const child = spawn('docker', ['build', '--network', 'host', '--build-arg', `NODE_IMAGE=${base}`, '-t', IMAGE, '.'], {
        cwd: ROOT,
        env: { ...process.env, DOCKER_BUILDKIT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`docker build exited ${code}:\n${output.join('').slice(-8000)}`))));
    });
    const seconds = (Date.now() - started) / 1000;
    const size = async (tag: string) => Number(await docker(['image', 'inspect', '--format', '{{.Size}}', tag]));
    return { tag: IMAGE, base, seconds, bytes: await size(IMAGE), baseBytes: await size(base) };
  })();
  return building;
}

export interface RunOptions {
  /** A short name, unique in the test (prefixed with this process's). */
  name: string;
  args?: string[];
  env?: Record<string, string>;
  /** Production's posture: read-only root, DATA_DIR a tmpfs owned by the image's user (default true). */
  readOnly?: boolean;
  /** The writable paths of a read-only container, each a tmpfs owned by the image's user (default DATA_DIR alone). */
  writable?: string[];
  user?: string;
  entrypoint?: string;
}

export class Container {
  constructor(
    readonly name: string,
    readonly id: string,
  ) {}

  logs(): Promise<string> {
    return run('docker', ['logs', this.name], { maxBuffer: 64 * 1024 * 1024 }).then(
      ({ stdout, stderr }) => stdout + stderr,
      () => '',
    );
  }

  async state(): Promise<{ running: boolean; exitCode: number }> {
    const json = await docker(['inspect', '--format', '{{json .State}}', this.name]);
    const s = JSON.parse(json) as { Running: boolean; ExitCode: number };
    return { running: s.Running, exitCode: s.ExitCode };
  }

  /** `docker stop` (SIGTERM, then SIGKILL after `graceSeconds`); resolves with the exit code and the seconds it took. */
  async stop(graceSeconds = 30): Promise<{ exitCode: number; seconds: number }> {
    const started = Date.now();
    await docker(['stop', '--time', String(graceSeconds), this.name], (graceSeconds + 30) * 1000);
    return { exitCode: (await this.state()).exitCode, seconds: (Date.now() - started) / 1000 };
  }

  /** Waits for the container to exit by itself; its exit code. */
  async wait(timeoutMs = 60_000): Promise<number> {
    return Number(await docker(['wait', this.name], timeoutMs));
  }

  /** Resident memory of the container's processes, from the engine's cgroup accounting (MiB). */
  async memoryMiB(): Promise<number> {
    const usage = await docker(['stats', '--no-stream', '--format', '{{.MemUsage}}', this.name]);
    const [amount, unit] = /([\d.]+)\s*([KMG]i?B)/.exec(usage)?.slice(1) ?? ['NaN', 'MiB'];
    const factor: Record<string, number> = { KiB: 1 / 1024, MiB: 1, GiB: 1024, kB: 1 / 1024, MB: 1, GB: 1024 };
    return Number(amount) * (factor[unit!] ?? 1);
  }

  remove(): Promise<void> {
    return docker(['rm', '--force', '--volumes', this.name]).then(() => undefined, () => undefined);
  }
}

const started: Container[] = [];

/** `docker run -d` on the host network; the container as started (not yet ready). */
export async function runContainer(opts: RunOptions): Promise<Container> {
  const name = `${PREFIX}${opts.name}`;
  const flags = ['run', '--detach', '--name', name, '--network', 'host', '--init=false'];
  if (opts.readOnly ?? true) flags.push('--read-only');
  for (const dir of opts.writable ?? ['/app/.data']) flags.push('--tmpfs', `${dir}:rw,uid=1000,gid=1000,mode=${dir === '/tmp' ? '1777' : '0700'}`);
  if (opts.user) flags.push('--user', opts.user);
  if (opts.entrypoint !== undefined) flags.push('--entrypoint', opts.entrypoint);
  for (const [key, value] of Object.entries(opts.env ?? {})) flags.push('--env', `${key}=${value}`);
  const id = await docker([...flags, IMAGE, ...(opts.args ?? [])]);
  const container = new Container(name, id);
  started.push(container);
  return container;
}

/** Runs a command in a fresh container to its end: exit code and output. */
export async function runToEnd(opts: RunOptions, timeoutMs = 60_000): Promise<{ exitCode: number; output: string }> {
  const container = await runContainer(opts);
  const exitCode = await container.wait(timeoutMs);
  const output = await container.logs();
  await container.remove();
  return { exitCode, output };
}

export async function removeAll(): Promise<void> {
  await Promise.all(started.splice(0).map((c) => c.remove()));
}
