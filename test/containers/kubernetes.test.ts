// The production overlay of deploy/kubernetes played with the image built here (test/helpers/kubelet.ts
// plays the kubelet, the Deployment controller and the Service behind the ingress): every Deployment's
// pods start with the manifest's args, env, security context and probes, and the api Deployment rolls
// under steady load with no failed request. test/runtime/kubernetes-manifests.test.ts validates the
// same manifests against the Kubernetes API schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRoles } from '../../src/roles';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/db';
import { testEnv } from '../helpers/env';
import { chainEnv, untilIndexedAt } from '../helpers/indexer';
import { until } from '../helpers/until';
import { buildImage, needsContainers, removeAll } from '../helpers/containers';
import { deploymentNames, Kubelet, type Pod, rollingBounds, startEdge } from '../helpers/kubelet';
import { containerSpecOf, type KubeObject, needsKubectl, PRODUCTION, renderKustomization } from '../helpers/kubernetes';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain/index.js';

const run = needsKubectl() && needsContainers();
/** How long an endpoint stays in the Service after its pod starts terminating (endpoint and ingress updates are asynchronous). */
const ENDPOINT_PROPAGATION_MS = 1000;


describe.runIf(run)('the Kubernetes manifests, played with the image', () => {
  let objects: KubeObject[];
  /** Deployment name by role. */
  let deployments: Record<string, string>;
  let kubelet: Kubelet;
  let db: ScratchDatabase;
  let blogDb: ScratchDatabase;
  let chain: SuiChainFixture;
  const figures: string[] = [];

  beforeAll(async () => {
    objects = renderKustomization(PRODUCTION);
    deployments = Object.fromEntries(deploymentNames(objects).map((name) => [[...parseRoles(containerSpecOf(name, objects).args)][0] ?? name, name]));
    await buildImage();
    [db, blogDb] = await Promise.all([createScratchDatabase(testEnv.databaseUrl!), createScratchDatabase(testEnv.databaseUrl!)]);
    chain = await startSuiChainFixture({ seed: 11, events: 300 });
    kubelet = new Kubelet({
      objects,
      // What a cluster's Secrets and DNS would give: this machine's databases, Redis and chain node.
      env: {
        DATABASE_URL: db.url,
        BLOG_DATABASE_URL: blogDb.url,
        SHARED_STORE_URL: testEnv.redisUrl!,
        SHARED_STORE_KEY_PREFIX: `ct-k8s-${process.pid}:`,
        JWT_SECRET: 'kubernetes-test-jwt-secret-0123456789abcdef',
        PAYLOAD_SECRET: 'kubernetes-test-payload-secret',
        WEBHOOK_SECRET: 'kubernetes-test-webhook-secret',
        BLOG_REVALIDATION_SECRET: 'kubernetes-test-revalidation-secret',
        // The manifests spell settings with underscores; the fixture's helper with dots.
        ...Object.fromEntries(Object.entries(chainEnv(chain)).map(([k, v]) => [k.replaceAll('.', '_'), v])),
        // One client (this test) sends all the load: admission per IP would answer 429.
        HTTP_RATE_LIMIT_MAX: '1000000',
      },
    });
  }, 900_000);

  afterAll(async () => {
    await removeAll();
    await chain?.close();
    await Promise.all([db?.drop(), blogDb?.drop()]);
    if (figures.length) console.log(`kubernetes play:\n  ${figures.join('\n  ')}`);
  });

  const startAll = async (deployment: string): Promise<Pod[]> => {
    const pods = await Promise.all(Array.from({ length: containerSpecOf(deployment, objects).replicas }, () => kubelet.startPod(deployment)));
    await Promise.all(pods.map((p) => p.runProbes()));
    await Promise.all(pods.map((p) => until(() => p.ready, `${p.name} ready`, 60_000, 50)));
    return pods;
  };

  it('starts every Deployment as written: each role, its replicas, their startup and readiness probes; one indexer leads', async () => {
    expect(Object.keys(deployments).sort()).toEqual(['api', 'blog', 'indexer', 'jobs']);
    // The blog first: the API reads posts from it (as the Services would let it, in any order).
    const started = Date.now();
    await startAll(deployments.blog!);
    const [api, jobs, indexer] = await Promise.all([startAll(deployments.api!), startAll(deployments.jobs!), startAll(deployments.indexer!)]);
    figures.push(`all pods ready ${((Date.now() - started) / 1000).toFixed(1)} s after the first started (3 API replicas migrating one empty database together)`);
    expect(api).toHaveLength(containerSpecOf(deployments.api!, objects).replicas);
    const leaders: string[] = [];
    for (const pod of indexer!) if ((await pod.container.logs()).includes('indexer: leading')) leaders.push(pod.name);
    await until(async () => {
      for (const pod of indexer!) if (!leaders.includes(pod.name) && (await pod.container.logs()).includes('indexer: leading')) leaders.push(pod.name);
      return leaders.length > 0;
    }, 'an indexer leading', 30_000, 200);
    expect(leaders).toHaveLength(1);
    await untilIndexedAt(db.url, chain);
    for (const pod of [...api!, ...jobs!, ...indexer!, ...kubelet.podsOf(deployments.blog!)]) {
      figures.push(`${pod.name}: ${(await pod.container.memoryMiB()).toFixed(0)} MiB`);
    }
  });

  it('rolls the api Deployment within maxSurge/maxUnavailable under steady load through the Service: no failed request, every old pod drained', async () => {
    const name = deployments.api!;
    const spec = containerSpecOf(name, objects);
    const replicas = spec.replicas;
    const { surge, unavailable } = rollingBounds(spec);
    expect(surge + unavailable).toBeGreaterThan(0);
    const old = kubelet.podsOf(name);
    expect(old.filter((p) => p.ready)).toHaveLength(replicas);
    const edge = await startEdge(() => kubelet.podsOf(name));
    let loading = true;
    let minReady = replicas;
    let maxPods = replicas;
    const watch = setInterval(() => {
      const live = kubelet.podsOf(name);
      minReady = Math.min(minReady, live.filter((p) => p.ready && !p.terminating).length);
      maxPods = Math.max(maxPods, live.filter((p) => !p.terminating).length);
    }, 20);
    const load = Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        while (loading) {
          const res = await fetch(i % 2 ? `${edge.url}/api/quests/list` : `${edge.url}/graphql`, i % 2 ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
          await res.arrayBuffer();
        }
      }),
    );
    await until(() => edge.stats.ok > 50, 'load flowing', 10_000);

    // The Deployment controller: new pods up to replicas + surge, old ones down while ready pods stay ≥ replicas − unavailable.
    const terminations: Promise<unknown>[] = [];
    const remaining = [...old];
    const fresh: Pod[] = [];
    while (remaining.length > 0 || fresh.some((p) => !p.ready)) {
      const live = remaining.length + fresh.length;
      const starting = Array.from({ length: Math.max(0, Math.min(replicas - fresh.length, replicas + surge - live)) }, () => kubelet.startPod(name));
      for (const pod of await Promise.all(starting)) {
        fresh.push(pod);
        void pod.runProbes();
      }
      const ready = [...remaining, ...fresh].filter((p) => p.ready).length;
      const canStop = Math.min(remaining.length, ready - (replicas - unavailable));
      if (canStop > 0) {
        for (const pod of remaining.splice(0, canStop)) {
          // SIGTERM and the endpoint's removal race, as in a cluster: the endpoint goes a moment later.
          terminations.push(pod.terminate());
          setTimeout(() => (pod.removedFromEndpoints = true), ENDPOINT_PROPAGATION_MS);
        }
      } else {
        await until(() => [...remaining, ...fresh].filter((p) => p.ready).length > ready || fresh.every((p) => p.ready), 'a new pod ready', 60_000, 50);
      }
    }
    await Promise.all(terminations);
    const afterRollout = edge.stats.ok;
    await until(() => edge.stats.ok > afterRollout + 50, 'load on the new pods', 10_000);
    loading = false;
    await load;
    clearInterval(watch);
    await edge.close();

    figures.push(
      `rolling update of ${replicas} api pods (maxSurge ${surge}, maxUnavailable ${unavailable}): ${edge.stats.ok} requests answered, ${edge.stats.failed.length} failed, ` +
        `${edge.stats.retried} refused connections retried by the edge; ready pods never below ${minReady}, pods never above ${maxPods}; ` +
        `old pods stopped in ${old.map((p) => p.exit!.seconds.toFixed(1)).join(', ')} s (grace ${old[0]!.graceSeconds} s)`,
    );
    expect(edge.stats.failed).toEqual([]);
    expect(minReady).toBeGreaterThanOrEqual(replicas - unavailable);
    expect(maxPods).toBeLessThanOrEqual(replicas + surge);
    for (const pod of old) {
      expect(pod.exit, pod.name).toMatchObject({ exitCode: 0, killed: false });
      expect(pod.exit!.seconds, `${pod.name} within its grace period`).toBeLessThan(pod.graceSeconds);
      // Drained: it said it was not ready while it still served, before it stopped.
      expect(await pod.container.logs(), pod.name).toMatch(/shutting down|drain/i);
    }
    for (const pod of kubelet.pods) expect(pod.livenessFailures, `${pod.name} liveness`).toBe(0);
    expect(kubelet.podsOf(name).filter((p) => p.ready)).toHaveLength(replicas);
  });
});
