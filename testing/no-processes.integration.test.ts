// The unit project's setup (no-processes.ts) attacked with planted test files, run by vitest as
// `npm run test:unit` runs them: a process started at import, while collecting a describe body,
// inside a test that swallows the refusal, or through node-pty fails its file with what it
// started; a file that starts nothing (a FIFO included) passes, before and after those.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { repoRoot } from './cli-runner'

const planted = path.join(
  repoRoot,
  'node_modules',
  '.cache',
  `mecatl-guard-check-${process.pid}-${Date.now()}`
)

const files: Record<string, string> = {
  'a-clean.test.ts': `
    import { it, expect } from 'vitest'
    import { lstatSync } from 'node:fs'
    import { makeFifo } from '${path.join(repoRoot, 'testing/fifo')}'
    it('starts nothing', () => {
      makeFifo('${path.join(planted, 'pipe')}')
      expect(lstatSync('${path.join(planted, 'pipe')}').isFIFO()).toBe(true)
    })`,
  'b-import.test.ts': `
    import { execFileSync } from 'node:child_process'
    import { it } from 'vitest'
    try { execFileSync('true', ['at-import']) } catch {}
    it('runs', () => {})`,
  'c-describe.test.ts': `
    import cp from 'node:child_process'
    import { describe, it } from 'vitest'
    describe('a body', () => {
      try { cp.spawnSync('true', ['in-describe']) } catch {}
      it('runs', () => {})
    })`,
  'd-swallowed.test.ts': `
    import { createRequire } from 'node:module'
    import { it } from 'vitest'
    it('hides the refusal', () => {
      try { createRequire(import.meta.url)('child_process').exec('true swallowed') } catch {}
    })`,
  'e-pty.test.ts': `
    import * as pty from 'node-pty'
    import { it } from 'vitest'
    it('opens a terminal', () => {
      try { pty.spawn('true', ['through-pty'], {}) } catch {}
    })`,
  'f-clean-after.test.ts': `
    import { it, expect } from 'vitest'
    it('starts nothing either', () => expect(1 + 1).toBe(2))`
}

interface FileResult {
  name: string
  status: string
  message: string
}

function runPlanted(): FileResult[] {
  mkdirSync(planted, { recursive: true })
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(planted, name), text)
  const config = path.join(planted, 'vitest.config.mjs')
  writeFileSync(
    config,
    `import { defineConfig } from 'vitest/config'
export default defineConfig({ test: {
  root: ${JSON.stringify(repoRoot)},
  include: [${JSON.stringify(path.relative(repoRoot, planted) + '/*.test.ts')}],
  exclude: [],
  setupFiles: ['testing/no-processes.ts'],
  isolate: false,
  maxWorkers: 1,
  fileParallelism: false
} })
`
  )
  const report = path.join(planted, 'report.json')
  const vitest = path.join(repoRoot, 'node_modules', '.bin', 'vitest')
  const args = ['run', '--config', config, '--reporter=json', `--outputFile.json=${report}`]
  const run = spawnSync(vitest, args, { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 })
  const parsed = JSON.parse(readFileSync(report, 'utf8')) as {
    testResults: { name: string; status: string; message: string }[]
  }
  expect(run.status, run.stderr).toBe(1)
  return parsed.testResults.map((result) => ({
    name: path.basename(result.name),
    status: result.status,
    message: result.message
  }))
}

describe('a unit test file that starts a process', () => {
  afterAll(() => rmSync(planted, { recursive: true, force: true }))

  it('fails, naming what it started, however it started it; clean files pass', () => {
    const results = new Map(runPlanted().map((result) => [result.name, result]))
    expect([...results.keys()].sort()).toEqual(Object.keys(files).sort())
    const failed = (name: string, started: string): void => {
      const result = results.get(name)
      expect(result?.status, name).toBe('failed')
      expect(result?.message).toContain(`${name} started 1 process(es), which a unit test does not`)
      expect(result?.message).toContain(started)
      expect(result?.message).toContain(name.replace('.test.ts', '.integration.test.ts'))
    }
    failed('b-import.test.ts', 'child_process.execFileSync: true at-import')
    failed('c-describe.test.ts', 'child_process.spawnSync: true in-describe')
    failed('d-swallowed.test.ts', 'child_process.exec: true swallowed')
    failed('e-pty.test.ts', 'node-pty spawn: true through-pty')
    expect(results.get('a-clean.test.ts')?.status).toBe('passed')
    expect(results.get('f-clean-after.test.ts')?.status).toBe('passed')
  })
})
