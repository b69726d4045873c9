import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A process's resident set now (VmRSS) or at its peak (VmHWM), in MiB, from /proc/<pid>/status. */
export const memoryMiB = (pid: number, field: 'VmRSS' | 'VmHWM'): number => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** A TCP port on loopback that nothing listens on right now (for a process the bench spawns). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
