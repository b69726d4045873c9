/**
 * The operator console as production serves it: scripts/build.ts bundles src/http/console/app into
 * the built server itself (CONSOLE_FILES), so the built process (.test-dist, the build `npm start`
 * and the image run) serves the page, its one module and the source map with no file beside it,
 * the same files a server run from the sources bundles on its first request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleConsole } from '../../src/http/console/bundle';
import { migratedTarget, type MigratedTarget } from '../helpers/db';
import { spawnMain, type SpawnedApi } from '../helpers/process';

let api: SpawnedApi | undefined;
let target: MigratedTarget | undefined;

beforeAll(async () => {
  target = await migratedTarget('console-built-');
  api = await spawnMain(['--role', 'api'], { ...target.env, CACHE_STORE: 'memory' }, 90_000);
}, 120_000);
afterAll(async () => {
  await api?.stop();
  await target?.cleanup();
});

describe('the console of the built server', () => {
  it('serves the bundle built into it: the page, one minified module, its source map and the stylesheet', async () => {
    const { files } = await bundleConsole();
    for (const [path, name, type] of [
      ['', 'index.html', /text\/html/],
      ['main.js', 'main.js', /text\/javascript/],
      ['main.js.map', 'main.js.map', /application\/json/],
      ['console.css', 'console.css', /text\/css/],
    ] as const) {
      const res = await fetch(`${api!.url}/console/${path}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type')).toMatch(type);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text(), name).toBe(files[name]);
    }
    expect(files['main.js']).toMatch(/\n\/\/# sourceMappingURL=main\.js\.map\n?$/);
    expect((JSON.parse(files['main.js.map']) as { sources: string[] }).sources).toContain('app/main.ts');
  });
});
