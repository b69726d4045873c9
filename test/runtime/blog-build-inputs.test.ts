// When a blog build is current (scripts/blog-build-inputs.ts): `npm start` builds again and the
// suite reuses a build by this answer, on a small repository laid out like ours.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { blogBuildInputs, blogBuildInputsHash, blogBuildIsCurrent, stampBlogBuild } from '../../scripts/blog-build-inputs'

let root: string
const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
  writeFileSync(path.join(root, file), text)
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'blog-inputs-'))
  write('blog/app/page.tsx', "import { site } from '../../src/shared/site'\nimport './blog.css'\nexport default () => site")
  write('blog/app/blog.css', 'body {}')
  write('blog/next-env.d.ts', '/// rewritten by every build')
  write('blog/.next/BUILD_ID', 'x')
  write('cms/config.ts', "export const load = () => import('../src/config/index.js')")
  write('src/shared/site.ts', "export { name } from './name'\nexport const site = 1")
  write('src/shared/name.ts', 'export const name = 1')
  write('src/config/index.ts', 'export default {}')
  write('src/services/unrelated.ts', 'export const x = 1')
  write('package-lock.json', '{}')
  write('tsconfig.json', '{}')
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('blog build inputs', () => {
  it('are blog/ and cms/, the files they import (static, dynamic, .js for .ts, re-exports), the lockfile and tsconfig', () => {
    expect(blogBuildInputs(root)).toEqual([
      'blog/app/blog.css',
      'blog/app/page.tsx',
      'cms/config.ts',
      'package-lock.json',
      'src/config/index.ts',
      'src/shared/name.ts',
      'src/shared/site.ts',
      'tsconfig.json',
    ])
  })

  it('a stamped build is current until an input changes; other files and the build output do not count', () => {
    expect(blogBuildIsCurrent('.next', blogBuildInputsHash(root), root)).toBe(false)
    stampBlogBuild('.next', blogBuildInputsHash(root), root)
    expect(blogBuildIsCurrent('.next', blogBuildInputsHash(root), root)).toBe(true)

    write('src/services/unrelated.ts', 'export const x = 2')
    write('blog/next-env.d.ts', '/// rewritten again')
    write('blog/.next/server/page.js', 'output')
    expect(blogBuildIsCurrent('.next', blogBuildInputsHash(root), root)).toBe(true)

    write('src/shared/name.ts', 'export const name = 2')
    expect(blogBuildIsCurrent('.next', blogBuildInputsHash(root), root)).toBe(false)
  })

  it('a stamp without a complete build (no BUILD_ID) is not current', () => {
    const inputs = blogBuildInputsHash(root)
    stampBlogBuild('.next', inputs, root)
    rmSync(path.join(root, 'blog/.next/BUILD_ID'))
    expect(blogBuildIsCurrent('.next', inputs, root)).toBe(false)
  })
})
