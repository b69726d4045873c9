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
import { spawnSync } from 'node:child_process';
import { createServer, request as httpRequest, Agent, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseAllDocuments } from 'yaml';
import { type Container, docker, IMAGE, runContainer } from './containers';
import { freePort } from './store';

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

/** `kubectl kustomize <dir>`: the objects it renders. */
export function renderKustomization(dir: string): KubeObject[] {
  const out = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`kubectl kustomize ${dir}: ${out.error?.message ?? out.stderr}`);
  return parseAllDocuments(out.stdout)
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null);
}

interface HttpGetProbe {
  httpGet?: { path?: string; port: number | string; scheme?: string };
  tcpSocket?: { port: number | string };
  exec?: { command: string[] };
  initialDelaySeconds?: number;
  periodSeconds?: number;
  timeoutSeconds?: number;
  failureThreshold?: number;
  successThreshold?: number;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { configMapKeyRef?: { name: string; key: string; optional?: boolean }; secretKeyRef?: { name: string; key: string; optional?: boolean }; fieldRef?: { fieldPath: string } };
}
export interface ContainerSpec {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  startupProbe?: HttpGetProbe;
  readinessProbe?: HttpGetProbe;
  livenessProbe?: HttpGetProbe;
  lifecycle?: { preStop?: { exec?: { command: string[] }; sleep?: { seconds: number }; httpGet?: { path?: string; port: number | string } } };
  securityContext?: { runAsUser?: number; runAsGroup?: number; readOnlyRootFilesystem?: boolean };
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  containers: ContainerSpec[];
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsUser?: number; runAsGroup?: number };
  volumes?: { name: string; emptyDir?: Record<string, unknown> }[];
}
export interface DeploymentSpec {
  replicas?: number;
  strategy?: { type?: string; rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string } };
  template: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec: PodSpec };
}

export const deploymentsOf = (objects: KubeObject[]) => objects.filter((o) => o.kind === 'Deployment') as (KubeObject & { spec: DeploymentSpec })[];

/** The settings that choose a role's listening port: the pod's own port is set through whichever holds the containerPort. */
const PORT_SETTINGS = ['GENERAL_PORT', 'GENERAL.PORT', 'BLOG_PORT', 'HEALTH_PORT'];

/** A Deployment's maxSurge and maxUnavailable as pod counts (percentages: surge rounds up, unavailable down, as Kubernetes does). */
export function rollingBounds(spec: DeploymentSpec): { surge: number; unavailable: number } {
  const replicas = spec.replicas ?? 1;
  const count = (v: number | string | undefined, fallback: string, round: (n: number) => number) => {
    const value = v ?? fallback;
    return typeof value === 'number' ? value : round((Number(value.replace('%', '')) / 100) * replicas);
  };
  return { surge: count(spec.strategy?.rollingUpdate?.maxSurge, '25%', Math.ceil), unavailable: count(spec.strategy?.rollingUpdate?.maxUnavailable, '25%', Math.floor) };
}

export interface PodEvents {
  livenessFailures: number;
  readinessChanges: { at: number; ready: boolean }[];
}

export class Pod {
  ready = false;
  started = false;
  terminating = false;
  /** When the pod left the Service's endpoints (it was terminating for the propagation delay). */
  removedFromEndpoints = false;
  exit?: { exitCode: number; seconds: number; killed: boolean };
  readonly events: PodEvents = { livenessFailures: 0, readinessChanges: [] };
  private probing = true;

  constructor(
    readonly name: string,
    readonly deployment: string,
    readonly container: Container,
    readonly port: number,
    readonly spec: ContainerSpec,
    readonly graceSeconds: number,
  ) {}

  probeUrl(probe: HttpGetProbe): string {
    if (!probe.httpGet) throw new Error(`${this.name}: only httpGet probes are played (${JSON.stringify(probe)})`);
    return `http://127.0.0.1:${this.port}${probe.httpGet.path ?? '/'}`;
  }

  private async check(probe: HttpGetProbe): Promise<boolean> {
    const timeout = (probe.timeoutSeconds ?? 1) * 1000;
    // Kubernetes counts any status from 200 to 399 as success.
    return fetch(this.probeUrl(probe), { signal: AbortSignal.timeout(timeout), redirect: 'manual' }).then((r) => r.status >= 200 && r.status < 400, () => false);
  }

  /** The kubelet's probe loops: startup until it passes (or the pod fails), then readiness and liveness. */
  async runProbes(): Promise<void> {
    const { startupProbe, readinessProbe, livenessProbe } = this.spec;
    const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000));
    if (startupProbe) {
      await sleep(startupProbe.initialDelaySeconds ?? 0);
      let failures = 0;
      while (this.probing && !(await this.check(startupProbe))) {
        if (++failures >= (startupProbe.failureThreshold ?? 3)) throw new Error(`${this.name}: startup probe failed ${failures} times:\n${(await this.container.logs()).slice(-3000)}`);
        await sleep(startupProbe.periodSeconds ?? 10);
      }
    }
    this.started = true;
    const loop = async (probe: HttpGetProbe | undefined, onResult: (ok: boolean, failures: number) => void) => {
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
      const ready = ok ? true : failures >= (readinessProbe?.failureThreshold ?? 3) ? false : this.ready;
      if (ready !== this.ready) this.events.readinessChanges.push({ at: Date.now(), ready });
      this.ready = ready;
    });
    void loop(livenessProbe, (ok, failures) => {
      if (!ok && failures >= (livenessProbe?.failureThreshold ?? 3) && !this.terminating) this.events.livenessFailures++;
    });
  }

  /** The kubelet's termination: preStop, then SIGTERM and the rest of the grace period, then SIGKILL. */
  async terminate(): Promise<NonNullable<Pod['exit']>> {
    this.terminating = true;
    const started = Date.now();
    const preStop = this.spec.lifecycle?.preStop;
    if (preStop?.sleep) await new Promise((r) => setTimeout(r, preStop.sleep!.seconds * 1000));
    else if (preStop?.exec) await docker(['exec', this.container.name, ...preStop.exec.command], this.graceSeconds * 1000).catch(() => undefined);
    else if (preStop?.httpGet) await fetch(`http://127.0.0.1:${this.port}${preStop.httpGet.path ?? '/'}`).catch(() => undefined);
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
  /** Values that replace the manifests' for this machine (databases, secrets' placeholders, public URL). */
  env: Record<string, string>;
  /** Service hosts in URLs (`http://blog:3001`) resolved to a pod of that Service on loopback. */
  serviceUrl?: (service: string, port: number) => string | undefined;
}

export class Kubelet {
  readonly pods: Pod[] = [];
  private serial = 0;

  constructor(private readonly opts: KubeletOptions) {}

  private object(kind: string, name: string): KubeObject | undefined {
    return this.opts.objects.find((o) => o.kind === kind && o.metadata.name === name);
  }

  private secretValue(name: string, key: string): string | undefined {
    const secret = this.object('Secret', name);
    const encoded = secret?.data?.[key];
    return secret?.stringData?.[key] ?? (encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8'));
  }

  /** A container's environment as the kubelet builds it: envFrom first, then env in order ($(VAR) expanded). */
  environment(spec: ContainerSpec): Record<string, string> {
    const env: Record<string, string> = {};
    for (const from of spec.envFrom ?? []) {
      if (from.configMapRef) Object.assign(env, this.object('ConfigMap', from.configMapRef.name)?.data ?? {});
      if (from.secretRef) {
        const secret = this.object('Secret', from.secretRef.name);
        for (const key of Object.keys({ ...secret?.data, ...secret?.stringData })) env[key] = this.secretValue(from.secretRef.name, key) ?? '';
      }
    }
    for (const v of spec.env ?? []) {
      const ref = v.valueFrom;
      const value = ref?.configMapKeyRef
        ? this.object('ConfigMap', ref.configMapKeyRef.name)?.data?.[ref.configMapKeyRef.key]
        : ref?.secretKeyRef
          ? this.secretValue(ref.secretKeyRef.name, ref.secretKeyRef.key)
          : ref?.fieldRef
            ? 'pod-field'
            : (v.value ?? '').replace(/\$\(([A-Za-z_][\w.]*)\)/g, (whole, name: string) => env[name] ?? whole);
      if (value !== undefined) env[v.name] = value;
    }
    return env;
  }

  private resolveServiceUrls(env: Record<string, string>): Record<string, string> {
    const services = new Set(this.opts.objects.filter((o) => o.kind === 'Service').map((o) => o.metadata.name));
    return Object.fromEntries(
      Object.entries(env).map(([key, value]) => {
        const m = /^(https?:\/\/)([a-z0-9-]+)(?:\.[a-z0-9.-]*)?(?::(\d+))?(\/.*)?$/.exec(value);
        if (!m || !services.has(m[2]!)) return [key, value];
        const target = this.opts.serviceUrl?.(m[2]!, Number(m[3] ?? 80));
        return [key, target ? `${target}${m[4] ?? ''}` : value];
      }),
    );
  }

  /** Starts one pod of a Deployment from the image built here; its probes run from now on. */
  async startPod(deployment: KubeObject & { spec: DeploymentSpec }): Promise<Pod> {
    const podSpec = deployment.spec.template.spec;
    const [spec] = podSpec.containers;
    if (!spec) throw new Error(`${deployment.metadata.name}: no container`);
    const port = await freePort();
    const manifestEnv = this.environment(spec);
    const env = this.resolveServiceUrls({ ...manifestEnv, ...this.opts.env });
    const portSetting = PORT_SETTINGS.find((s) => spec.ports?.some((p) => String(p.containerPort) === env[s]));
    if (!portSetting) throw new Error(`${deployment.metadata.name}: no port setting holds a containerPort (${JSON.stringify(spec.ports)})`);
    env[portSetting] = String(port);
    const security = { ...podSpec.securityContext, ...spec.securityContext };
    const dataMount = spec.volumeMounts?.find((m) => podSpec.volumes?.find((v) => v.name === m.name)?.emptyDir !== undefined);
    if (dataMount && dataMount.mountPath !== '/app/.data' && env.DATA_DIR !== dataMount.mountPath) {
      throw new Error(`${deployment.metadata.name}: the emptyDir is at ${dataMount.mountPath}, DATA_DIR at ${env.DATA_DIR ?? '/app/.data'}`);
    }
    const name = `${deployment.metadata.name}-${++this.serial}`;
    const container = await runContainer({
      name,
      args: [...(spec.command?.slice(1) ?? []), ...(spec.args ?? [])],
      env,
      readOnly: security.readOnlyRootFilesystem === true,
      user: security.runAsUser === undefined ? undefined : `${security.runAsUser}:${security.runAsGroup ?? security.runAsUser}`,
    });
    const pod = new Pod(name, deployment.metadata.name, container, port, spec, podSpec.terminationGracePeriodSeconds ?? 30);
    this.pods.push(pod);
    return pod;
  }

  podsOf(deployment: string): Pod[] {
    return this.pods.filter((p) => p.deployment === deployment && !p.exit);
  }
}

/** The image the manifests name, for the record: the tests run the one built here instead. */
export const imageOf = (spec: ContainerSpec) => ({ manifest: spec.image, used: IMAGE });

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
