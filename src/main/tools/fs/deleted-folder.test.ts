// A project folder deleted while a session is open: every file tool refuses, and none of them
// brings the folder back (Write's missing-parent creation stops below the folder itself).
import { access, rm } from 'node:fs/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Tool } from '../tool'
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
  textOf,
  type TestWorkspace
} from '../../../../testing/fs-test-context'
import { writeTool } from './write'

let ws: TestWorkspace
beforeEach(async () => {
  ws = await createTestWorkspace()
  await rm(ws.root, { recursive: true })
})
afterEach(async () => {
  await ws.cleanup()
})

const calls: [string, Tool, unknown][] = [
  ['Read', readTool, { path: 'a.txt' }],
  ['ListDir', listDirTool, { path: '.' }],
  ['ListDir below', listDirTool, { path: 'src' }],
  ['Write', writeTool, { path: 'a.txt', content: 'x' }],
  ['Write below', writeTool, { path: 'src/deep/a.txt', content: 'x' }],
  ['Edit', editTool, { path: 'a.txt', old: 'a', new: 'b' }],
  ['Copy', copyTool, { source: 'a.txt', destination: 'b.txt' }],
  ['Move', moveTool, { source: 'a.txt', destination: 'src/b.txt' }],
  ['Remove', removeTool, { path: 'a.txt' }],
  ['Glob', globTool, { pattern: '**/*' }],
  ['Grep with ripgrep', createGrepTool({ ripgrep: () => findRipgrep() }), { pattern: 'x' }],
  ['Grep with Node', createGrepTool({ ripgrep: () => null }), { pattern: 'x' }]
]

describe('a project folder that no longer exists', () => {
  it.each(calls)('is not recreated by %s, which refuses', async (_name, tool, input) => {
    const out = await ws.run(tool, input)
    expect(out.isError).toBe(true)
    expect(textOf(out)).toBe(
      `the project folder (${ws.root}) no longer exists; nothing was done. Restore it, or open the folder it was moved to`
    )
    await expect(access(ws.root)).rejects.toThrow(/ENOENT/)
  })
})
