/**
 * Setup file of the blog project: every blog file starts once the suite's blog servers answer
 * (test/blog/blog-global-setup.ts builds and starts them while the backend files run), and fails
 * with the preparation's own error if it failed.
 */
import { existsSync, readFileSync } from 'node:fs'
import { beforeAll, inject } from 'vitest'
import { runExclusively } from '../helpers/exclusive'
import { waitFor } from '../helpers/store'

/** A first build on a busy 2-core machine, niced under the backend files, plus both servers' start. */
const PREPARATION_TIMEOUT_MS = 15 * 60_000

beforeAll(async () => {
  const file = inject('blogReadyFile')
  await waitFor(() => existsSync(file), PREPARATION_TIMEOUT_MS, `the blog suite's build and servers (${file})`)
  const outcome = JSON.parse(readFileSync(file, 'utf8')) as { ok: boolean; error?: string }
  if (!outcome.ok) throw new Error(`the blog suite's preparation failed: ${outcome.error}`)
}, PREPARATION_TIMEOUT_MS + 5_000)

// One blog file at a time (they share the suite's servers and CMS database), beside at most one solo file.
runExclusively('blog')
