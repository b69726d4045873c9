// Build budget of the blog: the largest client script chunk must be ≤ 3.5 MB and all client
// scripts together ≤ 13 MB (MB = 1024 × 1024 bytes). Reads blog/.next/static after `npm run blog:build`.
import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadConfig } from '../src/config'

export const MAX_CHUNK_BYTES = 3.5 * 1024 * 1024
export const MAX_TOTAL_BYTES = 13 * 1024 * 1024

export interface BudgetReport {
  files: number
  totalBytes: number
  largest: { file: string; bytes: number } | null
  ok: boolean
  problems: string[]
}

function scripts(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...scripts(full))
    else if (/\.(m?js)$/.test(entry.name)) out.push(full)
  }
  return out
}

export function measureBudget(staticDir: string): BudgetReport {
  const files = scripts(staticDir)
  let totalBytes = 0
  let largest: BudgetReport['largest'] = null
  for (const file of files) {
    const bytes = statSync(file).size
    totalBytes += bytes
    if (!largest || bytes > largest.bytes) largest = { file: path.relative(staticDir, file), bytes }
  }
  const problems: string[] = []
  if (files.length === 0) problems.push(`no scripts under ${staticDir}: build the blog first`)
  if (largest && largest.bytes > MAX_CHUNK_BYTES) problems.push(`largest chunk ${largest.file} is ${mb(largest.bytes)} > 3.5 MB`)
  if (totalBytes > MAX_TOTAL_BYTES) problems.push(`all scripts total ${mb(totalBytes)} > 13 MB`)
  return { files: files.length, totalBytes, largest, ok: problems.length === 0, problems }
}

const mb = (b: number): string => `${(b / 1024 / 1024).toFixed(2)} MB`

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
  const dist = loadConfig({ envDir: path.join(root, 'env'), requireDeploymentSettings: false }).blog.distDir
  const report = measureBudget(path.join(root, 'blog', dist, 'static'))
  console.log(`blog budget: ${report.files} scripts, total ${mb(report.totalBytes)} (limit 13 MB), largest ${report.largest ? `${report.largest.file} ${mb(report.largest.bytes)}` : '-'} (limit 3.5 MB)`)
  for (const p of report.problems) console.error(`  ✗ ${p}`)
  process.exit(report.ok ? 0 : 1)
}
