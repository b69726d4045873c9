// A V8 heap snapshot's bytes by package: each object is charged to the package whose code keeps it
// alive. Scripts are charged to the package of their file; functions and their compiled data (through
// `shared` → `script`) to their script's package; every other object to the package of its nearest
// owner up the dominator tree (the object that alone keeps it reachable). What no package's code
// dominates (the module loader's registry, objects several packages hold, V8's and Node's own) is
// "(shared or runtime)". Self sizes only: V8 heap, not the native memory around it.
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** The package a script path belongs to. */
export function packageOf(url: string): string {
  const file = url.replace(/^file:\/\//, '');
  const pkg = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (pkg) return pkg[1]!;
  if (file.startsWith('node:') || !file.startsWith('/')) return '(node internals)';
  return '(our code)';
}

/** Immediate dominators by the iterative algorithm of Cooper, Harvey and Kennedy, over non-weak edges from node 0. */
function dominators(count: number, succ: (n: number, visit: (m: number) => void) => void): { idom: Int32Array; order: Int32Array } {
  const post = new Int32Array(count).fill(-1);
  const order: number[] = [];
  const stack: number[] = [0];
  const seen = new Uint8Array(count);
  // Iterative depth-first post-order.
  seen[0] = 1;
  const iter: number[][] = [];
  const childrenOf = (n: number) => {
    const out: number[] = [];
    succ(n, (m) => out.push(m));
    return out;
  };
  iter.push(childrenOf(0));
  while (stack.length) {
    const next = iter[iter.length - 1]!.pop();
    if (next === undefined) {
      const n = stack.pop()!;
      iter.pop();
      post[n] = order.length;
      order.push(n);
      continue;
    }
    if (seen[next]) continue;
    seen[next] = 1;
    stack.push(next);
    iter.push(childrenOf(next));
  }
  const preds: number[][] = Array.from({ length: count }, () => []);
  for (const n of order) succ(n, (m) => preds[m]!.push(n));
  const idom = new Int32Array(count).fill(-1);
  idom[0] = 0;
  const rpo = order.slice().reverse();
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while (post[a]! < post[b]!) a = idom[a]!;
      while (post[b]! < post[a]!) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const n of rpo) {
      if (n === 0) continue;
      let d = -1;
      for (const p of preds[n]!) if (idom[p] !== -1) d = d === -1 ? p : intersect(p, d);
      if (d !== -1 && idom[n] !== d) {
        idom[n] = d;
        changed = true;
      }
    }
  }
  return { idom, order: Int32Array.from(rpo) };
}

/** For each node, the package of the nearest owned node on its breadth-first (shortest) path from node 0. */
function nearestOwners(count: number, succ: (n: number, visit: (m: number) => void) => void, own: (n: number) => string | null): Array<string | null> {
  const near: Array<string | null> = new Array(count).fill(null);
  const seen = new Uint8Array(count);
  const queue = new Int32Array(count);
  let head = 0;
  let tail = 0;
  queue[tail++] = 0;
  seen[0] = 1;
  while (head < tail) {
    const n = queue[head++]!;
    near[n] = own(n) ?? near[n];
    succ(n, (m) => {
      if (seen[m]) return;
      seen[m] = 1;
      near[m] = near[n]!;
      queue[tail++] = m;
    });
  }
  return near;
}

/** Lines: the heap by package (largest first), and by V8 object kind. */
export function heapReport(file: string, top = 25): string[] {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const { meta } = snap.snapshot;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const [TYPE, NAME, SIZE, EDGES] = ['type', 'name', 'self_size', 'edge_count'].map((f) => meta.node_fields.indexOf(f)) as [number, number, number, number];
  const [ETYPE, ENAME, ETO] = ['type', 'name_or_index', 'to_node'].map((f) => meta.edge_fields.indexOf(f)) as [number, number, number];
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const { nodes, edges, strings } = snap;
  const count = nodes.length / nf;
  const firstEdge = new Int32Array(count + 1);
  for (let n = 0; n < count; n++) firstEdge[n + 1] = firstEdge[n]! + nodes[n * nf + EDGES]!;
  const weak = edgeTypes.indexOf('weak');
  const named = new Set(['context', 'property', 'internal', 'shortcut', 'weak'].map((t) => edgeTypes.indexOf(t)));
  const succ = (n: number, visit: (m: number) => void) => {
    for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e++) if (edges[e * ef + ETYPE] !== weak) visit(edges[e * ef + ETO]! / nf);
  };
  const edgeTo = (n: number, name: string): number => {
    for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e++) if (named.has(edges[e * ef + ETYPE]!) && strings[edges[e * ef + ENAME]!] === name) return edges[e * ef + ETO]! / nf;
    return -1;
  };
  const codeType = nodeTypes.indexOf('code');
  const closureType = nodeTypes.indexOf('closure');
  const isScript = (n: number) => nodes[n * nf + TYPE] === codeType && /^(file:\/\/|\/|node:)/.test(strings[nodes[n * nf + NAME]!]!) && edgeTo(n, 'source') !== -1;
  const scriptPackage = (n: number): string | null => (n !== -1 && isScript(n) ? packageOf(strings[nodes[n * nf + NAME]!]!) : null);
  /** The package a node belongs to by itself: a script, a function's compiled data, a closure. */
  const ownPackage = (n: number): string | null => {
    if (isScript(n)) return scriptPackage(n);
    if (nodes[n * nf + TYPE] === closureType) {
      const shared = edgeTo(n, 'shared');
      return shared === -1 ? null : scriptPackage(edgeTo(shared, 'script'));
    }
    return nodes[n * nf + TYPE] === codeType ? scriptPackage(edgeTo(n, 'script')) : null;
  };
  const { idom, order } = dominators(count, succ);
  const nearest = nearestOwners(count, succ, ownPackage);
  const owner: Array<string | null> = new Array(count).fill(null);
  const byPackage = new Map<string, number>();
  const sharedByPackage = new Map<string, number>();
  const byKind = new Map<string, number>();
  const sharedByName = new Map<string, number>();
  let total = 0;
  for (const n of order) {
    owner[n] = ownPackage(n) ?? (n === 0 ? null : owner[idom[n]!]!);
    const size = nodes[n * nf + SIZE]!;
    total += size;
    const key = owner[n] ?? '(shared or runtime)';
    byPackage.set(key, (byPackage.get(key) ?? 0) + size);
    if (!owner[n]) {
      const near = nearest[n] ?? '(runtime)';
      sharedByPackage.set(near, (sharedByPackage.get(near) ?? 0) + size);
      const name = `${nodeTypes[nodes[n * nf + TYPE]!]} ${JSON.stringify(strings[nodes[n * nf + NAME]!]!.slice(0, 40))}`;
      sharedByName.set(name, (sharedByName.get(name) ?? 0) + size);
    }
    const kind = nodeTypes[nodes[n * nf + TYPE]!]!;
    byKind.set(kind, (byKind.get(kind) ?? 0) + size);
  }
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(1).padStart(6)} MiB`;
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return [
    `heap snapshot of a warmed, idle API: ${mib(total).trim()} reachable in ${count} objects; by the package whose code keeps it (dominator tree):`,
    ...sorted(byPackage)
      .slice(0, top)
      .map(([k, v]) => `  ${mib(v)}  ${k}`),
    `"(shared or runtime)" by the package nearest to it on its shortest path from the roots (a guess: several packages hold these): ${sorted(sharedByPackage)
      .slice(0, 10)
      .map(([k, v]) => `${k} ${mib(v).trim()}`)
      .join(', ')}`,
    `largest in "(shared or runtime)", by kind and name: ${sorted(sharedByName)
      .slice(0, 8)
      .map(([k, v]) => `${k} ${mib(v).trim()}`)
      .join(', ')}`,
    `by V8 object kind: ${sorted(byKind)
      .slice(0, 8)
      .map(([k, v]) => `${k} ${mib(v).trim()}`)
      .join(', ')}`,
  ];
}

if (import.meta.filename === process.argv[1]) process.stdout.write(`${heapReport(process.argv[2]!, Number(process.argv[3] ?? 25)).join('\n')}\n`);
