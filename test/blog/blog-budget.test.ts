/** The build made by the global setup stays within the frontend script budget. */
import path from 'node:path'
import { expect, it } from 'vitest'
import { MAIN_DIST } from './blog-global-setup'
import { MAX_CHUNK_BYTES, MAX_TOTAL_BYTES, measureBudget } from '../../scripts/blog-budget'

it('largest script chunk ≤ 3.5 MB and all scripts ≤ 13 MB', () => {
  const report = measureBudget(path.resolve(import.meta.dirname, '../../blog', MAIN_DIST, 'static'))
  expect(report.problems).toEqual([])
  expect(report.largest!.bytes).toBeLessThanOrEqual(MAX_CHUNK_BYTES)
  expect(report.totalBytes).toBeLessThanOrEqual(MAX_TOTAL_BYTES)
})
