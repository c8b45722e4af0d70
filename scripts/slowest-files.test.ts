// The unit step of `npm test` ends by naming the slowest test files, read from vitest's JSON
// report, so the next person to slow the suite down sees where.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { slowestFiles, slowestLines, slowestSpecs } from './slowest-files.mjs'

const root = '/repo'

function file(name: string, startTime: number, endTime: number): Record<string, unknown> {
  return { name: path.join(root, name), startTime, endTime, status: 'passed', assertionResults: [] }
}

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mecatl-slowest-'))
})
afterEach(async () => rm(dir, { recursive: true, force: true }))

async function report(content: unknown): Promise<string> {
  const where = path.join(dir, 'report.json')
  await writeFile(where, typeof content === 'string' ? content : JSON.stringify(content))
  return where
}

describe('slowestFiles', () => {
  it('lists the ten slowest files, slowest first, relative to the root, in seconds', async () => {
    const files = Array.from({ length: 14 }, (_, i) => file(`src/f${i}.test.ts`, 0, (i + 1) * 250))
    const slowest = slowestFiles(await report({ testResults: files }), root)
    expect(slowest).toHaveLength(10)
    expect(slowest[0]).toEqual({ file: 'src/f13.test.ts', seconds: 3.5 })
    expect(slowest.map((s) => s.file).at(-1)).toBe('src/f4.test.ts')
    expect(slowest.map((s) => s.seconds)).toEqual(
      [...slowest.map((s) => s.seconds)].sort((a, b) => b - a)
    )
  })

  it('keeps a file that failed, and counts one that never ran as no time', async () => {
    const slowest = slowestFiles(
      await report({
        testResults: [
          { ...file('src/broken.test.ts', 1000, 5000), status: 'failed' },
          { name: path.join(root, 'src/never.test.ts'), status: 'failed', assertionResults: [] },
          file('src/quick.test.ts', 0, 100)
        ]
      }),
      root
    )
    expect(slowest).toEqual([
      { file: 'src/broken.test.ts', seconds: 4 },
      { file: 'src/quick.test.ts', seconds: 0.1 },
      { file: 'src/never.test.ts', seconds: 0 }
    ])
  })

  it('gives nothing for a report that is missing or not vitest JSON', async () => {
    expect(slowestFiles(path.join(dir, 'absent.json'), root)).toEqual([])
    expect(slowestFiles(await report('{"testResults": [tru'), root)).toEqual([])
    expect(slowestFiles(await report({ testResults: 'no' }), root)).toEqual([])
  })
})

/** A spec of a Playwright JSON report with one test, run once per duration given (retries). */
function spec(title: string, ...durations: number[]): Record<string, unknown> {
  return { title, tests: [{ results: durations.map((duration, retry) => ({ duration, retry })) }] }
}

describe('slowestSpecs', () => {
  it('sums each spec file’s runs, describe blocks and retries included, slowest first', async () => {
    const slowest = slowestSpecs(
      await report({
        config: { rootDir: path.join(root, 'e2e') },
        suites: [
          { file: 'stop.spec.ts', specs: [spec('stops', 2000)] },
          {
            file: 'screens/chat.spec.ts',
            specs: [spec('first chat', 3000)],
            suites: [{ title: 'anthropic', specs: [spec('thinking', 1500, 1000)] }]
          },
          { file: 'quick.spec.ts', specs: [spec('quick', 100)] }
        ]
      }),
      root
    )
    expect(slowest).toEqual([
      { file: 'e2e/screens/chat.spec.ts', seconds: 5.5 },
      { file: 'e2e/stop.spec.ts', seconds: 2 },
      { file: 'e2e/quick.spec.ts', seconds: 0.1 }
    ])
  })

  it('keeps the ten slowest', async () => {
    const suites = Array.from({ length: 12 }, (_, i) => ({
      file: `s${i}.spec.ts`,
      specs: [spec('t', (i + 1) * 100)]
    }))
    const slowest = slowestSpecs(await report({ config: { rootDir: root }, suites }), root)
    expect(slowest.map((s) => s.file)).toEqual(
      Array.from({ length: 10 }, (_, i) => `s${11 - i}.spec.ts`)
    )
  })

  it('gives nothing for a report that is missing or not Playwright JSON', async () => {
    expect(slowestSpecs(path.join(dir, 'absent.json'), root)).toEqual([])
    expect(slowestSpecs(await report('{"suites": [tru'), root)).toEqual([])
    expect(slowestSpecs(await report({ suites: 'no' }), root)).toEqual([])
  })
})

describe('slowestLines', () => {
  it('prints a heading and one aligned line per file', () => {
    expect(
      slowestLines([
        { file: 'src/main/cli/cli.test.ts', seconds: 12.34 },
        { file: 'src/a.test.ts', seconds: 0.5 }
      ])
    ).toEqual([
      'slowest test files:',
      '  12.3s  src/main/cli/cli.test.ts',
      '   0.5s  src/a.test.ts'
    ])
  })

  it('prints nothing when there is nothing to rank', () => {
    expect(slowestLines([])).toEqual([])
  })
})
