// No Kubernetes cluster runs here, so the manifests of deploy/kubernetes/ are checked as rendered:
// against the Kubernetes API schemas (kubernetes-models 5.1.0: Kubernetes v1.36.0), and against the
// image: its roles, settings, ports, probe paths, drain bound and the edge rules of the HAProxy config.
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeConfig, EDGE_DEFAULTS } from '../../scripts/haproxy-config';
import { loadConfig } from '../../src/config';
import { SETTING_NAMES } from '../../src/config/settings';
import { Registry } from 'prom-client';
import { listenHealth } from '../../src/http/health-server';
import { parseRoles, ROLES, type Role } from '../../src/roles';
import { shutdownBoundMs } from '../../src/runtime/shutdown';
import { APP_ROUTE_REDIRECTS } from '../../src/surfaces/shared/redirects';
import { startApi, type TestApi } from '../helpers/api';
import { containerSpecOf, type ContainerSpec, type DeploymentSpec, type KubeObject, needsKubectl, ofKind, PRODUCTION, renderKustomization } from '../helpers/kubernetes';

const ROOT = path.resolve(import.meta.dirname, '../..');
const KUSTOMIZATIONS = ['base', PRODUCTION];

/** The API groups and kinds the manifests may use: all GA in Kubernetes 1.23 and still served in 1.36. */
const MODELS: Record<string, { validate(): void } & (new (data: never) => { validate(): void })> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
} as never;

/** Throws with the schema's complaints when `object` is not a valid object of a kind listed above. */
function validate(object: KubeObject): void {
  const Model = MODELS[`${object.apiVersion}/${object.kind}`];
  if (!Model) throw new Error(`${object.apiVersion} ${object.kind} is not a kind these manifests may use`);
  new Model(asSent(object) as never).validate();
}

/**
 * kustomize wraps long base64 Secret values over several lines; the API server's decoder (Go's
 * encoding/base64) skips line breaks, which the schema's `byte` format does not.
 */
function asSent(object: KubeObject): KubeObject {
  if (object.kind !== 'Secret' || !object.data) return object;
  const data = Object.fromEntries(Object.entries(object.data as Record<string, string>).map(([k, v]) => [k, v.replace(/[\r\n]/g, '')]));
  return { ...object, data };
}

const SETTING_BY_NAME = new Map(SETTING_NAMES.flatMap((s) => s.names.map((n) => [n, s] as const)));
const SECRET_NAMES = new Set(SETTING_NAMES.filter((s) => s.secret).flatMap((s) => s.names));

const roleOf = (spec: Pick<ContainerSpec, 'deployment' | 'args'>): Role => {
  const roles = [...parseRoles(spec.args)];
  if (roles.length !== 1) throw new Error(`${spec.deployment} runs ${roles.length} roles`);
  return roles[0]!;
};

/** The port the role's process listens on, from its environment, with the settings' defaults. */
function listeningPort(role: Role, env: Record<string, string>): number {
  const config = loadConfig({ envDir: '/nonexistent', env });
  if (role === 'api') return config.http.port;
  if (role === 'blog') return config.blog.port;
  if (config.http.healthPort === undefined) throw new Error(`${role} has no HEALTH_PORT`);
  return config.http.healthPort;
}

interface IngressSpec {
  ingressClassName?: string;
  defaultBackend?: unknown;
  rules: { host?: string; http: { paths: { path: string; pathType: string; backend: { service: { name: string; port: { number?: number; name?: string } } } }[] } }[];
}

/** The Service an ingress-nginx Ingress sends `host` + `requestPath` to (Exact before the longest Prefix), or null. */
function routeOf(ingresses: (KubeObject & { spec: IngressSpec })[], host: string, requestPath: string): { service: string; port: number; ingress: string } | null {
  const candidates = ingresses.flatMap((ing) =>
    ing.spec.rules
      .filter((r) => r.host === host)
      .flatMap((r) => r.http.paths.map((p) => ({ ...p, ingress: ing.metadata.name }))),
  );
  const exact = candidates.find((p) => p.pathType === 'Exact' && p.path === requestPath);
  const prefixes = candidates
    .filter((p) => p.pathType === 'Prefix' && (p.path === '/' || requestPath === p.path.replace(/\/$/, '') || requestPath.startsWith(`${p.path.replace(/\/$/, '')}/`)))
    .sort((a, b) => b.path.length - a.path.length);
  const hit = exact ?? prefixes[0];
  return hit ? { service: hit.backend.service.name, port: hit.backend.service.port.number!, ingress: hit.ingress } : null;
}

interface PolicySpec {
  podSelector: Selector;
  policyTypes?: string[];
  ingress?: { from?: { podSelector?: Selector; namespaceSelector?: Selector }[]; ports?: { port: number }[] }[];
}
interface Selector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

function selects(selector: Selector, labels: Record<string, string>): boolean {
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpression = (selector.matchExpressions ?? []).every((e) => {
    if (e.operator === 'In') return e.values!.includes(labels[e.key] ?? '\0');
    throw new Error(`selector operator ${e.operator} not evaluated here`);
  });
  return byLabel && byExpression;
}

/** Whether the namespace's NetworkPolicies let a peer (its namespace's and pod's labels) reach `pod` on `port`. */
function ingressAllowed(policies: (KubeObject & { spec: PolicySpec })[], pod: Record<string, string>, peer: { namespace: Record<string, string>; pod: Record<string, string>; sameNamespace: boolean }, port: number): boolean {
  const applying = policies.filter((p) => (p.spec.policyTypes ?? ['Ingress']).includes('Ingress') && selects(p.spec.podSelector, pod));
  if (applying.length === 0) return true;
  return applying.some((p) =>
    (p.spec.ingress ?? []).some((rule) => {
      const portOk = !rule.ports || rule.ports.some((r) => r.port === port);
      const fromOk =
        !rule.from ||
        rule.from.some((f) => {
          if (f.namespaceSelector && !selects(f.namespaceSelector, peer.namespace)) return false;
          if (!f.namespaceSelector && !peer.sameNamespace) return false;
          return !f.podSelector || selects(f.podSelector, peer.pod);
        });
      return portOk && fromOk;
    }),
  );
}

const run = needsKubectl();

describe.runIf(run)('the Kubernetes manifests (deploy/kubernetes/, rendered by kubectl kustomize)', () => {
  const rendered = new Map<string, KubeObject[]>();
  let production: KubeObject[];
  let specs: ContainerSpec[];
  const podLabels = (deployment: string) => (production.find((o) => o.kind === 'Deployment' && o.metadata.name === deployment)!.spec as DeploymentSpec).template.metadata!.labels!;

  beforeAll(() => {
    for (const dir of KUSTOMIZATIONS) rendered.set(dir, renderKustomization(dir));
    production = rendered.get(PRODUCTION)!;
    specs = ofKind(production, 'Deployment').map((d) => containerSpecOf(d.metadata.name, production));
  });

  it('validates every object against the Kubernetes v1.36 API schemas, and the validator refuses broken ones', () => {
    for (const [dir, objects] of rendered) {
      expect(objects.length, dir).toBeGreaterThan(10);
      for (const object of objects) expect(() => validate(object), `${dir}: ${object.kind} ${object.metadata.name}`).not.toThrow();
    }
    const api = production.find((o) => o.kind === 'Deployment' && o.metadata.name === 'api')!;
    const broken = (change: (d: KubeObject & { spec: DeploymentSpec }) => void) => {
      const copy = structuredClone(api) as KubeObject & { spec: DeploymentSpec };
      change(copy);
      return () => validate(copy);
    };
    expect(broken((d) => Object.assign(d.spec, { replicas: 'three' }))).toThrow(/replicas must be integer/);
    expect(broken((d) => delete (d.spec.template.spec.containers[0] as Partial<ContainerSpec['container']>).name)).toThrow(/must have required property name/);
    expect(broken((d) => Object.assign(d.spec.template.spec.containers[0]!, { resources: { limits: { memory: '512 MB' } } }))).toThrow(/quantity/);
    expect(() => validate({ ...api, apiVersion: 'extensions/v1beta1' })).toThrow(/not a kind/);
  });

  it('covers every role of src/roles.ts with exactly one Deployment of the one image', () => {
    for (const [dir, objects] of rendered) {
      const roles = ofKind<DeploymentSpec>(objects, 'Deployment').map((d) => {
        const [container] = d.spec.template.spec.containers;
        return roleOf({ deployment: d.metadata.name, args: container!.args ?? [] });
      });
      expect([...roles].sort(), dir).toEqual([...ROLES].sort());
    }
    expect(new Set(specs.map((s) => s.image)).size).toBe(1);
    expect(specs[0]!.image).toMatch(/^[\w./-]+\/platform-backend:[\w.-]+$/);
    expect(specs[0]!.image).not.toMatch(/:latest$/);
    for (const spec of specs) expect(spec.command, `${spec.deployment} keeps the image's entrypoint`).toBeUndefined();
    const replicas = Object.fromEntries(specs.map((s) => [roleOf(s), s.replicas]));
    expect(replicas).toEqual({ api: 3, jobs: 2, indexer: 2, blog: 1 });
  });

  it('sets only real settings, keeps every secret setting in the Secret, and each environment loads with the start-up rules', () => {
    const configMaps = ofKind(production, 'ConfigMap');
    const secrets = ofKind(production, 'Secret');
    expect(configMaps).toHaveLength(1);
    expect(secrets).toHaveLength(1);
    for (const map of configMaps) {
      const keys = Object.keys((map.data as Record<string, string>) ?? {});
      expect(keys.filter((k) => !SETTING_BY_NAME.has(k)), 'not settings').toEqual([]);
      expect(keys.filter((k) => SECRET_NAMES.has(k)), 'secrets in a ConfigMap').toEqual([]);
    }
    const secretKeys = Object.keys((secrets[0]!.data as Record<string, string>) ?? {});
    expect(secretKeys.filter((k) => !SECRET_NAMES.has(k)), 'the Secret holds secret settings only').toEqual([]);
    expect(secretKeys).toEqual(expect.arrayContaining(['DATABASE_URL', 'BLOG_DATABASE_URL', 'SHARED_STORE_URL', 'JWT_SECRET', 'PAYLOAD_SECRET']));
    for (const spec of specs) {
      const literal = (spec.container.env ?? []).map((e) => e.name);
      expect(literal.filter((n) => !SETTING_BY_NAME.has(n)), `${spec.deployment}: not settings`).toEqual([]);
      expect(literal.filter((n) => SECRET_NAMES.has(n)), `${spec.deployment}: secrets written into the Deployment`).toEqual([]);
      const config = loadConfig({ envDir: '/nonexistent', env: spec.env });
      expect(config.store.cacheStore, spec.deployment).toBe('redis');
      expect(config.surfaces.network, spec.deployment).toBe('mainnet');
      expect(new URL(config.blog.appUrl).protocol, spec.deployment).toBe('https:');
      const { JWT_SECRET: _jwt, ...withoutJwt } = spec.env;
      expect(() => loadConfig({ envDir: '/nonexistent', env: withoutJwt }), `${spec.deployment} refuses to start without JWT_SECRET`).toThrow(/JWT_SECRET/);
    }
    const api = specs.find((s) => s.deployment === 'api')!;
    expect(loadConfig({ envDir: '/nonexistent', env: api.env }).http.trustedProxyCidrs.length, 'TRUSTED_PROXY_CIDRS: the ingress controller').toBeGreaterThan(0);
  });

  describe('probes: paths the image serves, on the port each role listens on', () => {
    let api: TestApi;
    let health: { url: string; close(): void };

    beforeAll(async () => {
      api = await startApi();
      const stub = { system: { info: () => ({ status: 'ok' }) }, readiness: { check: async () => ({ ready: true, checks: {} }) } };
      const server = await listenHealth({ services: stub as never, registry: new Registry() }, { host: '127.0.0.1', port: 0 });
      health = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
    });
    afterAll(async () => {
      health?.close();
      await api?.close();
    });

    it('every probe is an HTTP GET that answers 200, on the container port the role listens on', async () => {
      const blogBase = /basePath:\s*'([^']+)'/.exec(readFileSync(path.join(ROOT, 'blog/next.config.mjs'), 'utf8'))?.[1];
      for (const spec of specs) {
        const role = roleOf(spec);
        const port = listeningPort(role, spec.env);
        expect(spec.ports.map((p) => p.containerPort), spec.deployment).toEqual([port]);
        const probes = Object.entries(spec.probes).filter(([, p]) => p !== undefined);
        expect(probes.map(([kind]) => kind).sort(), spec.deployment).toEqual(['liveness', 'readiness', 'startup']);
        for (const [kind, probe] of probes) {
          const what = `${spec.deployment} ${kind} probe`;
          expect(probe!.httpGet, what).toBeDefined();
          expect(spec.portOf(probe!.httpGet!.port), what).toBe(port);
          const probePath = probe!.httpGet!.path!;
          if (role === 'api') {
            const reply = await api.app.inject({ method: 'GET', url: probePath });
            expect(reply.statusCode, `${what}: ${probePath}`).toBe(200);
          } else if (role === 'blog') {
            expect(probePath.startsWith(`${blogBase}/`), what).toBe(true);
            const route = path.join(ROOT, 'blog/app/(blog)', probePath.slice(blogBase!.length), 'route.ts');
            expect(existsSync(route), `${what}: ${route}`).toBe(true);
          } else {
            const res = await fetch(`${health.url}${probePath}`);
            expect(res.status, `${what}: ${probePath}`).toBe(200);
          }
        }
        const liveness = spec.probes.liveness!.httpGet!.path;
        expect(liveness, `${spec.deployment}: liveness never waits on the database`).not.toMatch(/ready/);
      }
    });
  });

  it('runs every container non-root with a read-only root filesystem and DATA_DIR and /tmp writable', () => {
    for (const spec of specs) {
      const pod = spec.pod.securityContext ?? {};
      const container = spec.container.securityContext ?? {};
      expect(pod.runAsNonRoot, spec.deployment).toBe(true);
      expect(pod.runAsUser, spec.deployment).toBe(1000);
      expect((pod.seccompProfile as { type?: string } | undefined)?.type, spec.deployment).toBe('RuntimeDefault');
      expect(container.readOnlyRootFilesystem, spec.deployment).toBe(true);
      expect(container.allowPrivilegeEscalation, spec.deployment).toBe(false);
      expect((container.capabilities as { drop?: string[] } | undefined)?.drop, spec.deployment).toEqual(['ALL']);
      const dataDir = loadConfig({ envDir: '/nonexistent', env: spec.env }).dataDir;
      for (const dir of [dataDir, '/tmp']) {
        const mount = spec.container.volumeMounts?.find((m) => m.mountPath === dir);
        expect(mount, `${spec.deployment} mounts ${dir}`).toBeDefined();
        expect(mount!.readOnly ?? false, `${spec.deployment}: ${dir} writable`).toBe(false);
        const volume = spec.pod.volumes?.find((v) => v.name === mount!.name);
        expect(volume?.emptyDir, `${spec.deployment}: ${dir} is an emptyDir`).toBeDefined();
      }
      expect(spec.container.resources?.requests?.memory, spec.deployment).toBeDefined();
      expect(spec.container.resources?.limits?.memory, spec.deployment).toBeDefined();
    }
    const namespace = ofKind(production, 'Namespace')[0]!;
    expect(namespace.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });

  it('lets every pod finish its drain before the kubelet kills it, and rolls the API without losing capacity', () => {
    for (const spec of specs) {
      const config = loadConfig({ envDir: '/nonexistent', env: spec.env });
      const needed = spec.preStopSleepSeconds + shutdownBoundMs(config) / 1000;
      expect(spec.terminationGracePeriodSeconds, `${spec.deployment}: grace ≥ ${needed} s`).toBeGreaterThanOrEqual(needed);
      expect(spec.strategy?.type, spec.deployment).toBe('RollingUpdate');
      expect(spec.strategy?.rollingUpdate?.maxUnavailable, spec.deployment).toBe(0);
      expect(spec.strategy?.rollingUpdate?.maxSurge, spec.deployment).toBe(1);
    }
    const api = specs.find((s) => s.deployment === 'api')!;
    // The endpoint's removal must reach the ingress controller while the API still serves.
    expect(Number(api.env.HTTP_DRAIN_DELAY_MS)).toBeGreaterThanOrEqual(5000);
    const hpa = ofKind<{ scaleTargetRef: { name: string }; minReplicas: number; maxReplicas: number; metrics: { resource?: { name: string } }[] }>(production, 'HorizontalPodAutoscaler');
    expect(hpa.map((h) => h.spec.scaleTargetRef.name)).toEqual(['api']);
    expect(hpa[0]!.spec.minReplicas).toBeGreaterThanOrEqual(3);
    expect(hpa[0]!.spec.maxReplicas).toBeGreaterThan(hpa[0]!.spec.minReplicas);
    expect(hpa[0]!.spec.metrics.map((m) => m.resource?.name)).toEqual(['cpu']);
    const pdbs = ofKind<{ selector: Selector; maxUnavailable?: number }>(production, 'PodDisruptionBudget');
    for (const role of ['api', 'jobs', 'indexer']) {
      const spec = specs.find((s) => roleOf(s) === role)!;
      const covering = pdbs.filter((p) => selects(p.spec.selector, podLabels(spec.deployment)));
      expect(covering.map((p) => p.spec.maxUnavailable), role).toEqual([1]);
    }
  });

  it('publishes the routes of the HAProxy edge and nothing else (no /metrics), with its rate limit and Socket.IO affinity', () => {
    const ingresses = ofKind<IngressSpec>(production, 'Ingress');
    const services = ofKind<{ selector: Record<string, string>; ports: { port: number; targetPort: string | number }[] }>(production, 'Service');
    const appUrl = new URL(specs[0]!.env.APP_URL!);
    const host = appUrl.hostname;
    for (const ing of ingresses) {
      expect(ing.spec.ingressClassName, ing.metadata.name).toBe('nginx');
      expect(ing.spec.defaultBackend, ing.metadata.name).toBeUndefined();
      for (const rule of ing.spec.rules) {
        for (const p of rule.http.paths) {
          expect(['Exact', 'Prefix'], `${ing.metadata.name} ${p.path}`).toContain(p.pathType);
          const service = services.find((s) => s.metadata.name === p.backend.service.name);
          expect(service?.spec.ports.map((sp) => sp.port), `${ing.metadata.name} → ${p.backend.service.name}`).toContain(p.backend.service.port.number);
        }
      }
    }
    // The reference: the API, Socket.IO and blog routes of the generated HAProxy config.
    const backendService = { api: 'api', socket_io: 'api-socketio', blog: 'blog' } as const;
    const acls = [...composeConfig(1).matchAll(/^\s*acl (api|socket_io|blog) (path|path_beg) (.+)$/gm)];
    expect(acls.length).toBeGreaterThanOrEqual(4);
    for (const [, backend, match, paths] of acls) {
      for (const p of paths!.trim().split(/\s+/)) {
        const probe = match === 'path_beg' ? `${p}x` : p;
        expect(routeOf(ingresses, host, probe)?.service, `${probe} (HAProxy ${backend})`).toBe(backendService[backend as keyof typeof backendService]);
      }
    }
    for (const legacy of Object.keys(APP_ROUTE_REDIRECTS)) {
      for (const p of [legacy, `${legacy}/`]) expect(routeOf(ingresses, host, p)?.service, p).toBe('api');
    }
    expect(routeOf(ingresses, host, '/console/')?.service).toBe('api');
    for (const p of ['/metrics', '/metrics/', '/', '/anything-else', '/apix']) expect(routeOf(ingresses, host, p), p).toBeNull();

    const annotations = (name: string) => ingresses.find((i) => i.metadata.name === name)!.metadata.annotations ?? {};
    const { perSecond, burst } = EDGE_DEFAULTS.rateLimit;
    for (const name of ['platform', 'platform-socketio']) {
      const a = annotations(name);
      expect(Number(a['nginx.ingress.kubernetes.io/limit-rps']), name).toBe(perSecond);
      expect(Number(a['nginx.ingress.kubernetes.io/limit-rps']) * Number(a['nginx.ingress.kubernetes.io/limit-burst-multiplier']), name).toBe(burst);
      expect(Number(a['nginx.ingress.kubernetes.io/proxy-read-timeout']), `${name}: websockets`).toBeGreaterThanOrEqual(3600);
    }
    expect(annotations('platform-socketio')).toMatchObject({ 'nginx.ingress.kubernetes.io/affinity': 'cookie', 'nginx.ingress.kubernetes.io/session-cookie-name': 'PLATFORM_SIO' });
    expect(annotations('platform')['nginx.ingress.kubernetes.io/affinity'], 'GraphQL and REST are not pinned').toBeUndefined();
    expect(annotations('platform')['nginx.ingress.kubernetes.io/from-to-www-redirect']).toBe('true');
    const legacy = ingresses.find((i) => i.metadata.name === 'platform-legacy-host')!;
    expect(legacy.spec.rules[0]!.host).not.toBe(host);
    expect(annotations('platform-legacy-host')['nginx.ingress.kubernetes.io/permanent-redirect']).toBe(`${appUrl.origin}/`);
    expect(annotations('platform-legacy-host')['nginx.ingress.kubernetes.io/permanent-redirect-code']).toBe('301');
  });

  it('denies traffic by default and lets through only the edge, the API to the blog and Prometheus', () => {
    const policies = ofKind<PolicySpec>(production, 'NetworkPolicy');
    const denyAll = policies.find((p) => Object.keys(p.spec.podSelector).length === 0);
    expect(denyAll?.spec.policyTypes?.sort()).toEqual(['Egress', 'Ingress']);
    const ns = (name: string) => ({ namespace: { 'kubernetes.io/metadata.name': name }, pod: {}, sameNamespace: false });
    const apiPod = { namespace: { 'kubernetes.io/metadata.name': 'platform' }, pod: podLabels('api'), sameNamespace: true };
    const cases: [string, string, ReturnType<typeof ns>, number, boolean][] = [
      ['edge → api', 'api', ns('ingress-nginx'), 3000, true],
      ['edge → blog', 'blog', ns('ingress-nginx'), 3001, true],
      ['edge → jobs', 'jobs', ns('ingress-nginx'), 9101, false],
      ['api → blog', 'blog', apiPod, 3001, true],
      ['Prometheus → api', 'api', ns('monitoring'), 3000, true],
      ['Prometheus → jobs', 'jobs', ns('monitoring'), 9101, true],
      ['Prometheus → indexer', 'indexer', ns('monitoring'), 9101, true],
      ['another namespace → api', 'api', ns('default'), 3000, false],
      ['another namespace → blog', 'blog', ns('default'), 3001, false],
    ];
    for (const [what, target, peer, port, allowed] of cases) expect(ingressAllowed(policies, podLabels(target), peer, port), what).toBe(allowed);
  });
});
