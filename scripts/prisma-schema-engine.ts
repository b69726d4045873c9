#!/usr/bin/env -S node --import tsx
// Stand-in for Prisma's native schema-engine binary (which cannot be downloaded here).
// The Prisma CLI spawns PRISMA_SCHEMA_ENGINE_BINARY with `--datamodels <file>… [--datasource <json>]`
// and talks newline-delimited JSON-RPC 2.0 over stdin/stdout; logs go to stderr as JSON lines.
// We answer those requests with @prisma/schema-engine-wasm driven by a pg driver adapter.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import * as glue from '@prisma/schema-engine-wasm/schema_engine_bg';
import { runEngineCli } from './prisma-engine-cli';
import { createMigration, evaluateDataLoss } from './prisma-engine-dev';
import { createEngineAdapterFactory, createPgliteEngineAdapterFactory } from './prisma-engine-adapter';

// The package's entry imports the .wasm as an ES module (bundler style), which Node refuses;
// instantiate it ourselves with the wasm-bindgen glue as its import object.
function loadEngine(): typeof glue {
  // The wasm build reports panics through this global before it traps.
  (globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown }).PRISMA_WASM_PANIC_REGISTRY = {
    set_message: (m: string) => log('ERROR', `schema engine panic: ${m}`),
  };
  const entry = createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm');
  const wasmPath = join(dirname(entry), 'schema_engine_bg.wasm');
  const module = new WebAssembly.Module(readFileSync(wasmPath));
  const instance = new WebAssembly.Instance(module, { './schema_engine_bg.js': glue as unknown as WebAssembly.ModuleImports });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return glue;
}

type RpcRequest = { jsonrpc: '2.0'; id: number | string; method: string; params?: unknown };
type RpcResponse = { jsonrpc: '2.0'; id: number | string; result?: unknown; error?: unknown };

function parseArgs(argv: string[]): { datamodels: string[]; datasource?: { url?: string; shadowDatabaseUrl?: string } } {
  const datamodels: string[] = [];
  let datasource: { url?: string } | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--datamodels') datamodels.push(argv[++i]);
    else if (a === '--datasource') datasource = JSON.parse(argv[++i]) as { url?: string; shadowDatabaseUrl?: string };
    else if (a === '--enabled-preview-features' || a === '--extension-types') i++;
  }
  return { datamodels, datasource };
}

function log(level: 'INFO' | 'ERROR', message: string): void {
  process.stderr.write(JSON.stringify({ level, fields: { message } }) + '\n');
}

function send(msg: RpcResponse | RpcRequest): void {
  process.stdout.write(JSON.stringify(msg) + '\n');
}

const EMULATED: Record<string, (engine: Record<string, (p: unknown) => Promise<unknown>>, p: never) => Promise<unknown>> = {
  evaluateDataLoss,
  createMigration,
};

// Native-engine method names that the wasm build spells differently.
const RENAMED: Record<string, string> = { getDatabaseVersion: 'version' };

let nextOutgoingId = 1_000_000;
const pendingPrints = new Map<number, () => void>();

/** The native engine prints diff output by asking the CLI to print it (a `print` request). */
function printViaCli(content: string): Promise<void> {
  const id = nextOutgoingId++;
  return new Promise((resolve) => {
    pendingPrints.set(id, resolve);
    send({ jsonrpc: '2.0', id, method: 'print', params: { content } });
  });
}

function toRpcError(e: unknown): unknown {
  const err = e as { message?: string; error_code?: string; code?: string; meta?: unknown; is_panic?: boolean };
  const message = err?.message ?? String(e);
  return {
    code: 4466,
    message: 'An error happened. Check the data field for details.',
    data: { is_panic: err?.is_panic ?? false, message, meta: err?.meta ?? null, error_code: err?.error_code ?? null },
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--version') || argv.includes('-V')) {
    process.stdout.write(`schema-engine-wasm ${loadEngine().version()}\n`);
    return;
  }
  const { datamodels, datasource } = parseArgs(argv);
  const cliAt = argv.indexOf('cli');
  if (cliAt >= 0) {
    process.exit(await runEngineCli(argv[cliAt + 1] ?? '', datasource));
  }
  const files: [string, string][] = datamodels.map((p) => [p, readFileSync(p, 'utf8')]);
  const factory = datasource?.url ? createEngineAdapterFactory(datasource.url, datasource.shadowDatabaseUrl) : createPgliteEngineAdapterFactory();
  const { SchemaEngine } = loadEngine();
  const engine = (await SchemaEngine.new(
    { datamodels: files.length ? files : undefined },
    (msg: string) => process.stderr.write(msg.endsWith('\n') ? msg : msg + '\n'),
    bindMigrationAwareSqlAdapterFactory(factory),
  )) as unknown as Record<string, (p: unknown) => Promise<unknown>>;

  let inFlight = Promise.resolve();
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on('line', (line) => {
    if (!line.trim()) return;
    const msg = JSON.parse(line) as RpcRequest & RpcResponse;
    if (!msg.method) {
      pendingPrints.get(Number(msg.id))?.();
      pendingPrints.delete(Number(msg.id));
      return;
    }
    // The native engine handles one request at a time; keep that order.
    inFlight = inFlight.then(() => handle(engine, msg));
  });
  rl.on('close', () => {
    void inFlight.then(() => process.exit(0));
  });
}

async function handle(engine: Record<string, (p: unknown) => Promise<unknown>>, req: RpcRequest): Promise<void> {
  const name = RENAMED[req.method] ?? req.method;
  const fn = EMULATED[name] ? (p: unknown) => EMULATED[name](engine, p as never) : engine[name];
  if (typeof fn !== 'function') {
    send({ jsonrpc: '2.0', id: req.id, error: toRpcError(new Error(`${req.method} is not supported by the wasm schema engine`)) });
    return;
  }
  try {
    const result = await fn.call(engine, req.params ?? {});
    if (req.method === 'diff') {
      const { stdout, ...rest } = result as { stdout?: string | null; exitCode: number };
      if (stdout) await printViaCli(stdout.replace(/\n$/, ''));
      send({ jsonrpc: '2.0', id: req.id, result: rest });
      return;
    }
    send({ jsonrpc: '2.0', id: req.id, result: result ?? {} });
  } catch (e) {
    log('ERROR', (e as Error)?.message ?? String(e));
    send({ jsonrpc: '2.0', id: req.id, error: toRpcError(e) });
  }
}

main().catch((e: unknown) => {
  log('ERROR', (e as Error)?.stack ?? String(e));
  process.exit(1);
});
