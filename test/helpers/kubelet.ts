/**
 * No Kubernetes cluster runs here, so the tests play its parts for rendered manifests (deploy/kubernetes):
 * the kubelet (a Deployment's pod template run with Docker: its args, env from ConfigMaps and Secrets,
 * security context, emptyDir mounts; its startup, readiness and liveness probes polled as written; a
 * termination that runs preStop, then SIGTERM with the grace period), the Deployment controller (a
 * rolling update within maxSurge/maxUnavailable) and the Service with the ingress controller in front
 * (requests go to ready endpoints only; an endpoint leaves a while after its pod starts terminating, as
 * endpoint updates propagate; a refused connection is retried on another endpoint, as ingress-nginx's
 * `proxy_next_upstream error` does).
 *
 * The host network stands in for pod IPs: each pod gets its own port, set through the role's port
 * setting, and its probes are translated to it.
 */
import { createServer, request as httpRequest, Agent, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Container, docker, runContainer } from './containers';
import { type ContainerSpec, containerSpecOf, type DeploymentSpec, type KubeObject, ofKind, type Probe } from './kubernetes';
import { freePort } from './store';

/** The settings that choose a role's listening port: the pod's own port is set through whichever holds the containerPort. */
const PORT_SETTINGS = ['GENERAL_PORT', 'GENERAL.PORT', 'BLOG_PORT', 'HEALTH_PORT'];

/** A Deployment's maxSurge and maxUnavailable as pod counts (percentages: surge rounds up, unavailable down, as Kubernetes does). */
export function rollingBounds(spec: ContainerSpec): { surge: number; unavailable: number } {
  const count = (v: number | string | undefined, fallback: string, round: (n: number) => number) => {
    const value = v ?? fallback;
    return typeof value === 'number' ? value : round((Number(value.replace('%', '')) / 100) * spec.replicas);
  };
  const rolling = spec.strategy?.rollingUpdate;
  return { surge: count(rolling?.maxSurge, '25%', Math.ceil), unavailable: count(rolling?.maxUnavailable, '25%', Math.floor) };
}

export class Pod {
  ready = false;
  terminating = false;
  /** The pod has left the Service's endpoints (after terminating for the propagation delay). */
  removedFromEndpoints = false;
  exit?: { exitCode: number; seconds: number; killed: boolean };
  /** Liveness probes that failed `failureThreshold` times in a row while the pod was not terminating. */
  livenessFailures = 0;
  private probing = true;

  constructor(
    readonly name: string,
    readonly deployment: string,
    readonly container: Container,
    readonly port: number,
    readonly spec: ContainerSpec,
  ) {}

  get graceSeconds(): number {
    return this.spec.terminationGracePeriodSeconds;
  }

  probeUrl(probe: Probe): string {
    if (!probe.httpGet) throw new Error(`${this.name}: only httpGet probes are played (${JSON.stringify(probe)})`);
    return `http://127.0.0.1:${this.port}${probe.httpGet.path ?? '/'}`;
  }

  private async check(probe: Probe): Promise<boolean> {
    const timeout = (probe.timeoutSeconds ?? 1) * 1000;
    // Kubernetes counts any status from 200 to 399 as success.
    return fetch(this.probeUrl(probe), { signal: AbortSignal.timeout(timeout), redirect: 'manual' }).then((r) => r.status >= 200 && r.status < 400, () => false);
  }

  /** The kubelet's probe loops: startup until it passes (or the pod fails), then readiness and liveness. */
  async runProbes(): Promise<void> {
    const { startup: startupProbe, readiness: readinessProbe, liveness: livenessProbe } = this.spec.probes;
    const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000));
    if (startupProbe) {
      await sleep(startupProbe.initialDelaySeconds ?? 0);
      let failures = 0;
      while (this.probing && !(await this.check(startupProbe))) {
        if (++failures >= (startupProbe.failureThreshold ?? 3)) throw new Error(`${this.name}: startup probe failed ${failures} times:\n${(await this.container.logs()).slice(-3000)}`);
        await sleep(startupProbe.periodSeconds ?? 10);
      }
    }
    const loop = async (probe: Probe | undefined, onResult: (ok: boolean, failures: number) => void) => {
      if (!probe) return onResult(true, 0);
      if (!startupProbe) await sleep(probe.initialDelaySeconds ?? 0);
      let failures = 0;
      while (this.probing) {
        const ok = await this.check(probe);
        failures = ok ? 0 : failures + 1;
        onResult(ok, failures);
        await sleep(probe.periodSeconds ?? 10);
      }
    };
    void loop(readinessProbe, (ok, failures) => {
      this.ready = ok ? true : failures >= (readinessProbe?.failureThreshold ?? 3) ? false : this.ready;
    });
    void loop(livenessProbe, (ok, failures) => {
      if (!ok && failures >= (livenessProbe?.failureThreshold ?? 3) && !this.terminating) this.livenessFailures++;
    });
  }

  /** The kubelet's termination: preStop, then SIGTERM and the rest of the grace period, then SIGKILL. */
  async terminate(): Promise<NonNullable<Pod['exit']>> {
    this.terminating = true;
    const started = Date.now();
    const preStop = this.spec.container.lifecycle?.preStop;
    if (this.spec.preStopSleepSeconds > 0) await new Promise((r) => setTimeout(r, this.spec.preStopSleepSeconds * 1000));
    else if (preStop?.exec) await docker(['exec', this.container.name, ...preStop.exec.command], this.graceSeconds * 1000).catch(() => undefined);
    const left = Math.max(1, Math.ceil(this.graceSeconds - (Date.now() - started) / 1000));
    const { exitCode } = await this.container.stop(left);
    this.probing = false;
    this.ready = false;
    this.exit = { exitCode, seconds: (Date.now() - started) / 1000, killed: exitCode === 137 };
    return this.exit;
  }
}

export interface KubeletOptions {
  objects: KubeObject[];
  /** Values that replace the manifests' for this machine (databases, the Secret's placeholders, the chain node). */
  env: Record<string, string>;
}

interface Volume {
  name: string;
  emptyDir?: unknown;
  persistentVolumeClaim?: unknown;
}

export class Kubelet {
  readonly pods: Pod[] = [];
  private serial = 0;

  constructor(private readonly opts: KubeletOptions) {}

  /** The loopback address of a running pod behind a Service (what cluster DNS and kube-proxy would give). */
  private serviceTarget(service: string): string | undefined {
    const target = this.opts.objects.find((o) => o.kind === 'Service' && o.metadata.name === service) as (KubeObject & { spec: { selector?: Record<string, string> } }) | undefined;
    if (!target) return undefined;
    const selector = target.spec.selector ?? {};
    const selected = ofKind<DeploymentSpec>(this.opts.objects, 'Deployment')
      .filter((d) => Object.entries(selector).every(([k, v]) => d.spec.template.metadata?.labels?.[k] === v))
      .map((d) => d.metadata.name);
    const pod = this.pods.find((p) => !p.exit && selected.includes(p.deployment));
    return pod ? `http://127.0.0.1:${pod.port}` : undefined;
  }

  /** URLs naming a Service go to one of its pods; loopback URLs on the container's port go to the pod's own. */
  private rewriteUrls(env: Record<string, string>, containerPort: number, podPort: number): Record<string, string> {
    return Object.fromEntries(
      Object.entries(env).map(([key, value]) => {
        const m = /^(https?:\/\/)([a-z0-9.-]+)(?::(\d+))?(\/.*)?$/.exec(value);
        if (!m) return [key, value];
        const [, , host, port, rest = ''] = m;
        if ((host === '127.0.0.1' || host === 'localhost') && Number(port) === containerPort) return [key, `http://127.0.0.1:${podPort}${rest}`];
        const service = host!.includes('.') ? undefined : this.serviceTarget(host!);
        return [key, service ? `${service}${rest}` : value];
      }),
    );
  }

  /** Starts one pod of a Deployment from the image built here; its probes run from `runProbes()` on. */
  async startPod(deployment: string): Promise<Pod> {
    const spec = containerSpecOf(deployment, this.opts.objects);
    const port = await freePort();
    const [containerPort] = spec.ports.map((p) => p.containerPort);
    const env = this.rewriteUrls({ ...spec.env, ...this.opts.env }, containerPort ?? 0, port);
    const portSetting = PORT_SETTINGS.find((s) => env[s] === String(containerPort));
    if (!portSetting) throw new Error(`${deployment}: no port setting holds the containerPort ${containerPort}`);
    env[portSetting] = String(port);
    const security = { ...spec.pod.securityContext, ...spec.container.securityContext } as { runAsUser?: number; runAsGroup?: number; readOnlyRootFilesystem?: boolean };
    const volumes = (spec.pod.volumes ?? []) as Volume[];
    const writable = (spec.container.volumeMounts ?? [])
      .filter((m) => !m.readOnly && volumes.some((v) => v.name === m.name && (v.emptyDir !== undefined || v.persistentVolumeClaim !== undefined)))
      .map((m) => m.mountPath);
    const name = `${deployment}-${++this.serial}`;
    const container = await runContainer({
      name,
      args: [...(spec.command?.slice(1) ?? []), ...spec.args],
      env,
      readOnly: security.readOnlyRootFilesystem === true,
      writable,
      user: security.runAsUser === undefined ? undefined : `${security.runAsUser}:${security.runAsGroup ?? security.runAsUser}`,
    });
    const pod = new Pod(name, deployment, container, port, spec);
    this.pods.push(pod);
    return pod;
  }

  podsOf(deployment: string): Pod[] {
    return this.pods.filter((p) => p.deployment === deployment && !p.exit);
  }
}

export const deploymentNames = (objects: KubeObject[]) => ofKind(objects, 'Deployment').map((d) => d.metadata.name);

export interface EdgeStats {
  ok: number;
  failed: { status?: number; error?: string; at: number }[];
  retried: number;
}

/**
 * The Service behind the ingress controller: each request goes to the next ready endpoint that has not
 * left the endpoints list; a connection refused before the request was sent is retried on another.
 */
export async function startEdge(endpoints: () => Pod[]): Promise<{ url: string; stats: EdgeStats; close(): Promise<void> }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const stats: EdgeStats = { ok: 0, failed: [], retried: 0 };
  let next = 0;
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, tried: Set<Pod>) => {
    const candidates = endpoints().filter((p) => p.ready && !p.removedFromEndpoints && !tried.has(p));
    const pod = candidates[next++ % Math.max(1, candidates.length)];
    if (!pod) {
      stats.failed.push({ status: 503, at: Date.now(), error: 'no ready endpoint' });
      res.writeHead(503).end();
      return;
    }
    tried.add(pod);
    const upstream = httpRequest({ host: '127.0.0.1', port: pod.port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      const status = answer.statusCode ?? 502;
      if (status >= 500) stats.failed.push({ status, at: Date.now(), error: pod.name });
      else stats.ok++;
      res.writeHead(status, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED' && !res.headersSent) {
        stats.retried++;
        forward(req, res, body, tried);
        return;
      }
      stats.failed.push({ error: `${pod.name}: ${err.code ?? err.message}`, at: Date.now() });
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    upstream.end(body);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => forward(req, res, Buffer.concat(chunks), new Set()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
