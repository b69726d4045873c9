/**
 * The Kubernetes manifests of deploy/kubernetes/, rendered as the cluster would receive them
 * (`kubectl kustomize`), and each Deployment's container as a kubelet would start it: its args,
 * its environment with the ConfigMap and Secret it names resolved, its ports and probes.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import { testEnv } from './env';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const KUBERNETES_DIR = path.join(ROOT, 'deploy/kubernetes');
export const PRODUCTION = 'overlays/production';

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/** Why `kubectl kustomize` cannot run here, or null when it can. */
export function kubectlProblem(): string | null {
  const version = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  if (version.error) return 'no kubectl on PATH (kubectl 1.27 or later: it brings kustomize v5)';
  if (version.status !== 0) return `kubectl version failed: ${version.stderr.trim().split('\n')[0]}`;
  return null;
}

/** For suites that render the manifests: true to run; skipped with the reason, or under REQUIRE_SERVICES=1 an error. */
export function needsKubectl(): boolean {
  const problem = kubectlProblem();
  if (problem && testEnv.requireServices) throw new Error(`REQUIRE_SERVICES=1 but the Kubernetes manifests cannot be rendered: ${problem}`);
  if (problem) console.warn(`Kubernetes manifest tests skipped: ${problem}`);
  return problem === null;
}

/**
 * The objects `kubectl kustomize <dir>` renders (dir relative to deploy/kubernetes/). It renders a
 * copy of deploy/kubernetes/ in which every overlay without a secrets.env gets its committed
 * secrets.env.example, so the Secret holds the template's placeholder values.
 */
export function renderKustomization(dir: string): KubeObject[] {
  const copy = mkdtempSync(path.join(tmpdir(), 'kustomize-'));
  try {
    cpSync(KUBERNETES_DIR, copy, { recursive: true });
    const overlays = path.join(copy, 'overlays');
    for (const overlay of existsSync(overlays) ? readdirSync(overlays) : []) {
      const example = path.join(overlays, overlay, 'secrets.env.example');
      const secrets = path.join(overlays, overlay, 'secrets.env');
      if (existsSync(example) && !existsSync(secrets)) cpSync(example, secrets);
    }
    const out = spawnSync('kubectl', ['kustomize', path.join(copy, dir)], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    if (out.error) throw out.error;
    if (out.status !== 0) throw new Error(`kubectl kustomize ${dir} exited ${out.status}: ${out.stderr}`);
    return parseAllDocuments(out.stdout).map((doc) => {
      if (doc.errors.length > 0) throw new Error(`kubectl kustomize ${dir}: ${doc.errors[0]!.message}`);
      return doc.toJS() as KubeObject;
    });
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

export interface Probe {
  httpGet?: { path?: string; port: number | string; scheme?: string };
  tcpSocket?: { port: number | string };
  exec?: { command: string[] };
  initialDelaySeconds?: number;
  periodSeconds?: number;
  timeoutSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: unknown;
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  lifecycle?: { preStop?: { sleep?: { seconds: number }; exec?: { command: string[] } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown>;
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}

export interface PodSpec {
  containers: Container[];
  securityContext?: Record<string, unknown>;
  terminationGracePeriodSeconds?: number;
  volumes?: ({ name: string } & Record<string, unknown>)[];
}

export interface DeploymentSpec {
  replicas?: number;
  strategy?: { type?: string; rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string } };
  selector: { matchLabels?: Record<string, string> };
  template: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec: PodSpec };
}

/** What a kubelet needs to start one replica of a Deployment, and how the Deployment rolls. */
export interface ContainerSpec {
  deployment: string;
  /** The Deployment's replicas, else its HorizontalPodAutoscaler's minimum, else 1. */
  replicas: number;
  image: string;
  /** The image's ENTRYPOINT when undefined. */
  command: string[] | undefined;
  args: string[];
  /** envFrom (ConfigMaps and Secrets, in order) then env: what the process sees. */
  env: Record<string, string>;
  ports: { name?: string; containerPort: number }[];
  probes: { startup?: Probe; readiness?: Probe; liveness?: Probe };
  /** A probe's or Service's port (a number or a container port's name) as a number. */
  portOf(port: number | string): number;
  strategy: DeploymentSpec['strategy'];
  terminationGracePeriodSeconds: number;
  /** A preStop `sleep` action's seconds (0 without one). */
  preStopSleepSeconds: number;
  container: Container;
  pod: PodSpec;
}

export const ofKind = <T = unknown>(objects: KubeObject[], kind: string): (KubeObject & { spec: T })[] =>
  objects.filter((o) => o.kind === kind) as (KubeObject & { spec: T })[];

function named(objects: KubeObject[], kind: string, name: string): KubeObject {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the rendered manifests`);
  return found;
}

/** A ConfigMap's or Secret's entries as the container's environment gets them. */
function entriesOf(object: KubeObject): Record<string, string> {
  if (object.kind === 'ConfigMap') return { ...(object.data as Record<string, string> | undefined) };
  const decoded = Object.entries((object.data as Record<string, string> | undefined) ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]);
  return { ...Object.fromEntries(decoded), ...(object.stringData as Record<string, string> | undefined) };
}

let production: KubeObject[] | undefined;

/** The single container of a Deployment (of the production overlay unless objects are given). */
export function containerSpecOf(deploymentName: string, objects: KubeObject[] = (production ??= renderKustomization(PRODUCTION))): ContainerSpec {
  const deployment = named(objects, 'Deployment', deploymentName) as KubeObject & { spec: DeploymentSpec };
  const pod = deployment.spec.template.spec;
  if (pod.containers.length !== 1) throw new Error(`${deploymentName}: ${pod.containers.length} containers, expected one`);
  const container = pod.containers[0]!;
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) Object.assign(env, entriesOf(named(objects, 'ConfigMap', source.configMapRef.name)));
    if (source.secretRef) Object.assign(env, entriesOf(named(objects, 'Secret', source.secretRef.name)));
  }
  for (const variable of container.env ?? []) {
    if (variable.value === undefined) throw new Error(`${deploymentName}: env ${variable.name} has no literal value (valueFrom is not resolved here)`);
    env[variable.name] = variable.value;
  }
  const autoscaler = ofKind<{ scaleTargetRef: { kind: string; name: string }; minReplicas?: number }>(objects, 'HorizontalPodAutoscaler').find(
    (h) => h.spec.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === deploymentName,
  );
  const ports = container.ports ?? [];
  const portOf = (port: number | string): number => {
    if (typeof port === 'number') return port;
    const match = ports.find((p) => p.name === port);
    if (!match) throw new Error(`${deploymentName}: no container port named ${port}`);
    return match.containerPort;
  };
  return {
    deployment: deploymentName,
    replicas: deployment.spec.replicas ?? autoscaler?.spec.minReplicas ?? 1,
    image: container.image,
    command: container.command,
    args: container.args ?? [],
    env,
    ports,
    probes: { startup: container.startupProbe, readiness: container.readinessProbe, liveness: container.livenessProbe },
    portOf,
    strategy: deployment.spec.strategy,
    terminationGracePeriodSeconds: pod.terminationGracePeriodSeconds ?? 30,
    preStopSleepSeconds: container.lifecycle?.preStop?.sleep?.seconds ?? 0,
    container,
    pod,
  };
}
