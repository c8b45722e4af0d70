// The path jail holds for every file tool: `..`, absolute paths, symlinks out of the folder,
// dangling symlinks pointing outside and symlink chains are each tried against every tool, and
// nothing outside the project folder may be read, listed, changed or created.
import { lstat, readlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Tool, ToolOutput } from '../tool'
import { copyTool } from './copy'
import { editTool } from './edit'
import { globTool } from './glob'
import { createGrepTool } from './grep'
import { listDirTool } from './list-dir'
import { moveTool } from './move'
import { readTool } from './read'
import { removeTool } from './remove'
import { findRipgrep } from './search/grep-rg'
import {
  createTestWorkspace,
  plantEscapes,
  snapshot,
  textOf,
  type Escapes,
  type TestWorkspace
} from '../../../../testing/fs-test-context'
import { writeTool } from './write'

let ws: TestWorkspace
let escapes: Escapes
let before: Record<string, string>
beforeEach(async () => {
  ws = await createTestWorkspace()
  escapes = await plantEscapes(ws)
  await writeFile(path.join(ws.root, 'inside.txt'), 'inside\n')
  // Sessions that read the outside file somehow must still not get through.
  ws.ctx.reads.record(escapes.secretFile, 'secret\n')
  before = await snapshot(ws.outside)
})
afterEach(async () => {
  expect(await snapshot(ws.outside)).toEqual(before)
  await ws.cleanup()
})

const outside = 'is outside the project folder'

function expectRefused(out: ToolOutput, how: string, also?: RegExp): void {
  expect(out.isError, how).toBe(true)
  const text = textOf(out)
  if (also) expect(text, how).toMatch(new RegExp(`${outside}|${also.source}`))
  else expect(text, how).toContain(outside)
  // The outside file holds the line `secret`: no result may show it.
  expect(text, how).not.toMatch(/(^|\t|:)secret$/m)
}

const everyPath = (): Record<string, string> => ({
  ...escapes.toFile,
  ...escapes.toMissing,
  ...escapes.toDirectory
})

describe('the jail', () => {
  it('holds for Read, Write and Edit', async () => {
    for (const [how, requested] of Object.entries({ ...escapes.toFile, ...escapes.toMissing })) {
      expectRefused(await ws.run(readTool, { path: requested }), `Read ${how}`)
      expectRefused(await ws.run(writeTool, { path: requested, content: 'x' }), `Write ${how}`)
      expectRefused(
        await ws.run(editTool, { path: requested, old: 'secret', new: 'x' }),
        `Edit ${how}`
      )
    }
  })

  it('holds for ListDir', async () => {
    for (const [how, requested] of Object.entries(everyPath())) {
      expectRefused(await ws.run(listDirTool, { path: requested }), `ListDir ${how}`)
    }
  })

  it('holds for Copy, as source and as destination', async () => {
    for (const [how, requested] of Object.entries({ ...escapes.toFile, ...escapes.toMissing })) {
      expectRefused(
        await ws.run(copyTool, { source: requested, destination: 'copied.txt' }),
        `Copy from ${how}`
      )
      // A dangling link is something: it exists, so Copy will not write through it.
      expectRefused(
        await ws.run(copyTool, { source: 'inside.txt', destination: requested }),
        `Copy to ${how}`,
        /already exists/
      )
    }
    await expect(lstat(path.join(ws.root, 'copied.txt'))).rejects.toThrow()
  })

  it('holds for Move: outside paths are refused, a link is moved as a link', async () => {
    for (const [how, requested] of Object.entries(escapes.toMissing)) {
      expectRefused(
        await ws.run(moveTool, { source: 'inside.txt', destination: requested }),
        `Move to ${how}`,
        /already exists/
      )
    }
    for (const [how, requested] of Object.entries({ ...escapes.toFile, ...escapes.toDirectory })) {
      const out = await ws.run(moveTool, { source: requested, destination: 'moved' })
      if (['symlink', 'relative symlink', 'symlink chain', 'directory symlink'].includes(how)) {
        // The link itself lives inside; moving it touches nothing it points to.
        expect(textOf(out), how).toBe(`Moved \`${requested}\` to \`moved\``)
        expect((await lstat(path.join(ws.root, 'moved'))).isSymbolicLink(), how).toBe(true)
        await ws.run(moveTool, { source: 'moved', destination: requested })
      } else {
        expectRefused(out, `Move from ${how}`, /is the project folder itself/)
      }
    }
  })

  it('holds for Remove: outside paths are refused, a link is removed as a link', async () => {
    for (const [how, requested] of Object.entries(everyPath())) {
      const link = path.join(ws.root, requested)
      const target = await readlink(link).catch(() => null)
      const out = await ws.run(removeTool, { path: requested })
      if (target !== null) {
        expect(textOf(out), how).toBe(
          `Removed the symbolic link \`${requested}\` (it pointed to \`${target}\`, which was not touched)`
        )
      } else {
        expectRefused(out, `Remove ${how}`, /is the project folder itself/)
      }
    }
  })

  describe.each([
    ['ripgrep', () => findRipgrep()],
    ['the Node engine', () => null]
  ])('for Grep with %s', (_name, engine) => {
    const grep: Tool = createGrepTool({ ripgrep: engine })

    it('refuses every way out as path, and a whole search never follows a link out', async () => {
      for (const [how, requested] of Object.entries(everyPath())) {
        expectRefused(await ws.run(grep, { pattern: 'secret', path: requested }), `Grep ${how}`)
      }
      expectRefused(
        await ws.run(grep, { pattern: 'x', glob: '../outside/*' }),
        'glob ..',
        /uses `\.\.`/
      )
      expectRefused(
        await ws.run(grep, { pattern: 'x', glob: escapes.secretFile }),
        'glob absolute',
        /is an absolute path/
      )
      const whole = await ws.run(grep, { pattern: 'secret', include_ignored: true })
      expect(textOf(whole)).toBe('No matches for `secret`')
      expect(textOf(await ws.run(grep, { pattern: 'inside' }))).toBe('inside.txt:1:inside')
    })
  })

  it('holds for Glob', async () => {
    for (const [how, requested] of Object.entries(everyPath())) {
      const out = await ws.run(globTool, { pattern: '**/*', path: requested })
      expect(out.isError, how).toBe(true)
      expect(textOf(out), how).toMatch(new RegExp(`${outside}|is a file|does not exist`))
    }
    for (const pattern of ['../outside/*', `${ws.outside}/*`, 'dir-out/**', 'dir-out/secret.txt']) {
      const out = await ws.run(globTool, { pattern })
      expect(out.isError, pattern).toBe(true)
      expect(textOf(out), pattern).not.toContain('secret.txt\n')
    }
    expect(textOf(await ws.run(globTool, { pattern: '**/*', include_ignored: true }))).toBe(
      'inside.txt'
    )
  })
})
