// The process entry (`npm start`, `--role …`): see src/runtime/process.ts for signals and exit
// codes and src/runtime/index.ts for what is started and the shutdown order.
import './node-version';
import nodeModule from 'node:module';

// V8's code cache for every module loaded after this line (on disk, in the OS temp directory):
// a start after the first compiles about a third less. The rest is imported dynamically so the
// cache is on before those modules are compiled.
// (Node 22.1+; the installed @types/node describes Node 20.)
(nodeModule as typeof nodeModule & { enableCompileCache: () => unknown }).enableCompileCache();
// With --enable-source-maps (npm start, the image) Node also reads and keeps the source map of every
// package in node_modules that ships one: about 19 MiB of an idle API's heap (docs/performance.md,
// issue 47). Stack traces need ours; a frame inside a package keeps its published file's line.
// (Node 22.14+; an older 22.x keeps every map, as before.)
const maps = nodeModule as typeof nodeModule & {
  getSourceMapsSupport?: () => { enabled: boolean; generatedCode: boolean };
  setSourceMapsSupport?: (enabled: boolean, options: { nodeModules: boolean; generatedCode: boolean }) => void;
};
const sourceMaps = maps.getSourceMapsSupport?.();
if (sourceMaps?.enabled) maps.setSourceMapsSupport?.(true, { nodeModules: false, generatedCode: sourceMaps.generatedCode });
await import('reflect-metadata');
const { runProcess } = await import('./runtime/process');
void runProcess(process.argv.slice(2));
