/** Helpers for the blog suite: free ports, starting `next start` on a build, waiting for it. */
import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, createWriteStream, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'

export const ROOT = path.resolve(import.meta.dirname, '../..')
export const NEXT_BIN = path.join(ROOT, 'node_modules/next/dist/bin/next')

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.unref()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address()
      const port = typeof addr === 'object' && addr ? addr.port : 0
      srv.close(() => resolve(port))
    })
  })
}

export function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const log = createWriteStream(logFile, { flags: 'a' })
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.pipe(log)
    child.stderr.pipe(log)
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}; see ${logFile}`))))
  })
}

/**
 * A copy of the build in blog/`from` at blog/`to`, without its cache: a server on the copy
 * regenerates pages into its own directory, never into the one another server reads.
 */
export function copyBuild(from: string, to: string): void {
  const [src, dest] = [path.join(ROOT, 'blog', from), path.join(ROOT, 'blog', to)]
  rmSync(dest, { recursive: true, force: true })
  for (const entry of readdirSync(src)) {
    // (`npm start`'s .next holds the suite's builds: never copied into themselves)
    if (entry !== 'cache' && !entry.startsWith('test-')) cpSync(path.join(src, entry), path.join(dest, entry), { recursive: true })
  }
}

export interface StartedServer {
  url: string
  child: ChildProcess
  stop(): Promise<void>
}

export async function startNext(port: number, env: NodeJS.ProcessEnv, logFile: string): Promise<StartedServer> {
  const log = createWriteStream(logFile, { flags: 'a' })
  const child = spawn(process.execPath, [NEXT_BIN, 'start', 'blog', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.pipe(log)
  child.stderr?.pipe(log)
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited ${child.exitCode}; see ${logFile}`)
    try {
      const res = await fetch(`${url}/blog/robots.txt`)
      if (res.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`next start did not answer in 60 s; see ${logFile}`)
    await new Promise((r) => setTimeout(r, 300))
  }
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
        setTimeout(() => child.kill('SIGKILL'), 5000).unref()
      }),
  }
}
