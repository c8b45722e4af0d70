// The jail holds while the path under a tool changes: a real directory inside the project folder
// and a link to a directory outside are swapped atomically (renameat2 RENAME_EXCHANGE) in a tight
// loop while the tools run at paths under it. Checking a path and then opening it by name would
// let some calls through the link; every one must instead act inside the folder or refuse, and
// the outside directory must come through untouched. Bounded: a fixed number of calls, and a
// swapper that stops when they are done.
import { lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startSwapRace, type SwapRace } from '../../../../testing/rename-exchange'
import type { Tool, ToolOutput } from '../tool'
import { globTool } from './glob'
import { createGrepTool, defaultGrepLimits } from './grep'
import { listDirTool } from './list-dir'
import { moveTool } from './move'
import { readTool } from './read'
import { findRipgrep } from './search/grep-rg'
import { CAN_HAND_FILES } from './search/rg-through-jail'
import {
  createTestWorkspace,
  snapshot,
  textOf,
  type TestWorkspace
} from '../../../../testing/fs-test-context'
import { writeTool } from './write'

const WRITES = 400
const READS = 400
const MOVES = 100
const LOOKS = 100
const RIPGREP_SEARCHES = 50
/** Each ripgrep search spawns rg over 400 files: on a loaded 2-core machine 100 took over 20 s. */
const RIPGREP_TIMEOUT_MS = 60_000
/** Far more than the calls take; reaching it would mean the race ended before they did. */
const MAX_SWAPS = 50_000_000

/** What a refusal caused by the swap may say: it changed, or it led outside at that instant. */
const refusedForTheRace = /changed while it was being opened|is outside the project folder/

let ws: TestWorkspace
let target: string
let before: Record<string, string>
let race: SwapRace
beforeEach(async () => {
  ws = await createTestWorkspace()
  target = path.join(ws.outside, 'target')
  await mkdir(target)
  await mkdir(path.join(ws.root, 'd'))
  for (let i = 0; i < READS; i++) {
    await writeFile(path.join(ws.root, 'd', `r-${i}.txt`), `inside ${i}\n`)
    await writeFile(path.join(target, `r-${i}.txt`), `OUTSIDE ${i}\n`)
  }
  for (let i = 0; i < MOVES; i++) {
    await writeFile(path.join(ws.root, 'd', `m-${i}.txt`), `move ${i}\n`)
    await writeFile(path.join(target, `m-${i}.txt`), `OUTSIDE ${i}\n`)
  }
  await writeFile(path.join(target, 'outside-only.txt'), 'OUTSIDE\n')
  await symlink(target, path.join(ws.root, 'swap'))
  before = await snapshot(ws.outside)
  race = await startSwapRace(path.join(ws.root, 'd'), path.join(ws.root, 'swap'), MAX_SWAPS)
})
afterEach(async () => {
  const swaps = await race.stop()
  // Still swapping when the calls were done: every call ran against the race.
  expect(swaps).toBeLessThan(MAX_SWAPS)
  expect(await snapshot(ws.outside)).toEqual(before)
  await ws.cleanup()
})

/** Every call's result, and what each threw (a throw is a failure too: it ends the run). */
class Calls {
  readonly refusals: string[] = []
  readonly thrown: string[] = []

  async run(tool: Tool, input: unknown): Promise<ToolOutput | null> {
    try {
      const out = await ws.run(tool, input)
      if (out.isError) this.refusals.push(textOf(out))
      return out.isError ? null : out
    } catch (error) {
      this.thrown.push(String(error))
      return null
    }
  }

  expectOnlyRaceRefusals(): void {
    expect(this.thrown).toEqual([])
    for (const refusal of this.refusals) expect(refusal).toMatch(refusedForTheRace)
  }
}

describe('the jail under a rename-exchange race', () => {
  it('sends no Write, Read or Move outside the project folder', async () => {
    const calls = new Calls()
    const written: number[] = []
    const moved: number[] = []
    let reads = 0
    for (let i = 0; i < Math.max(WRITES, READS, MOVES); i++) {
      if (i < WRITES) {
        const write = await calls.run(writeTool, {
          path: `d/w-${i}.txt`,
          content: `written ${i}\n`
        })
        if (write) written.push(i)
      }
      if (i < READS) {
        const read = await calls.run(readTool, { path: `d/r-${i}.txt` })
        if (read) {
          expect(textOf(read)).toBe(`     1\tinside ${i}`)
          reads++
        }
      }
      if (i < MOVES) {
        const move = await calls.run(moveTool, {
          source: `d/m-${i}.txt`,
          destination: `d/n-${i}.txt`
        })
        if (move) moved.push(i)
      }
    }
    console.info(
      `swap race: ${written.length}/${WRITES} writes, ${reads}/${READS} reads, ` +
        `${moved.length}/${MOVES} moves done; ${calls.refusals.length} refused`
    )
    calls.expectOnlyRaceRefusals()
    // Whichever name the real directory ended up under, everything reported done is in it.
    await race.stop()
    const real = (await lstat(path.join(ws.root, 'd'))).isDirectory() ? 'd' : 'swap'
    const inside = path.join(ws.root, real)
    for (const i of written) {
      expect(await readFile(path.join(inside, `w-${i}.txt`), 'utf8')).toBe(`written ${i}\n`)
    }
    for (const i of moved) {
      expect(await readFile(path.join(inside, `n-${i}.txt`), 'utf8')).toBe(`move ${i}\n`)
    }
    for (const name of await readdir(inside)) {
      expect(name, 'nothing but what the calls made or were given').toMatch(/^[rwmn]-\d+\.txt$/)
    }
  })

  it('lists and searches nothing outside with ListDir, Glob and Grep', async () => {
    const calls = new Calls()
    const grep = createGrepTool({ ripgrep: () => null })
    const shown: string[] = []
    for (let i = 0; i < LOOKS; i++) {
      for (const [tool, input] of [
        [listDirTool, { path: 'd' }],
        [globTool, { pattern: '**/*.txt', include_ignored: true }],
        [grep, { pattern: 'OUTSIDE', include_ignored: true }]
      ] as const) {
        const out = await calls.run(tool, input)
        if (out) shown.push(textOf(out))
      }
    }
    calls.expectOnlyRaceRefusals()
    for (const text of shown) {
      expect(text).not.toContain('outside-only')
      expect(text).not.toContain('OUTSIDE ')
    }
    expect(shown.length).toBeGreaterThan(0)
  })

  it(
    'shows nothing outside with Grep on ripgrep, which walks by name on its own',
    async () => {
      const rg = findRipgrep()
      if (!rg)
        throw new Error('ripgrep is not installed; install it with `apt-get install -y ripgrep`')
      // Where files cannot be handed to ripgrep, Grep searches in Node: this race would miss it.
      expect(CAN_HAND_FILES).toBe(true)
      // Every matching line listed, so none from outside can hide among those only counted.
      const limits = { ...defaultGrepLimits, shownLines: defaultGrepLimits.matchCeiling }
      const grep = createGrepTool({ ripgrep: () => rg, limits })
      const calls = new Calls()
      // What is inside matches too, so the searches are seen to find things while the race runs.
      const input = { pattern: 'inside \\d+|OUTSIDE', include_ignored: true }
      let found = 0
      for (let i = 0; i < RIPGREP_SEARCHES; i++) {
        const out = await calls.run(grep, input)
        if (!out) continue
        const text = textOf(out)
        // Every candidate ripgrep found was refused (it had walked through the link).
        if (text === `No matches for \`${input.pattern}\``) continue
        expect(text).not.toContain('outside-only')
        expect(text).not.toContain('OUTSIDE')
        // Whichever of the two names was the real directory when it was read.
        for (const line of text.split('\n')) {
          expect(line).toMatch(/^(d|swap)\/r-(\d+)\.txt:1:inside \2$/)
          found++
        }
      }
      console.info(`swap race: ripgrep Grep showed ${found} lines, all inside`)
      calls.expectOnlyRaceRefusals()
      expect(found).toBeGreaterThan(0)
    },
    RIPGREP_TIMEOUT_MS
  )
})
