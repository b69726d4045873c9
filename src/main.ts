// The process entry (`npm start`, `--role …`): see src/runtime/process.ts for signals and exit
// codes and src/runtime/index.ts for what is started and the shutdown order.
import './node-version';
import nodeModule from 'node:module';

// V8's code cache for every module loaded after this line (on disk, in the OS temp directory):
// a start after the first compiles about a third less. The rest is imported dynamically so the
// cache is on before those modules are compiled.
// (Node 22.1+; the installed @types/node describes Node 20.)
(nodeModule as typeof nodeModule & { enableCompileCache: () => unknown }).enableCompileCache();
await import('reflect-metadata');
const { runProcess } = await import('./runtime/process');
void runProcess(process.argv.slice(2));
