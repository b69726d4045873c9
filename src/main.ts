// The process entry (`npm start`, `--role …`): see src/runtime/process.ts for signals and exit
// codes and src/runtime/index.ts for what is started and the shutdown order.
import './node-version';
import 'reflect-metadata';
import { runProcess } from './runtime/process';

void runProcess(process.argv.slice(2));
