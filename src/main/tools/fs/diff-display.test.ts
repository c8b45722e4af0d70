import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DIFF_DISPLAY_MAX_BYTES } from './diff-display'
import { editTool } from './edit'
import { readTool } from './read'
import { createTestWorkspace, type TestWorkspace } from '../../../../testing/fs-test-context'
import { writeTool } from './write'

let ws: TestWorkspace
beforeEach(async () => {
  ws = await createTestWorkspace()
})
afterEach(async () => {
  await ws.cleanup()
})

describe('the diff shown in the window for Write and Edit', () => {
  it('has no before for a new file', async () => {
    const out = await ws.run(writeTool, { path: 'a/new.txt', content: 'one\n' })
    expect(out.display).toEqual({ kind: 'diff', path: 'a/new.txt', before: null, after: 'one\n' })
  })

  it('has the old and new content of a replaced file', async () => {
    await writeFile(path.join(ws.root, 'x.txt'), 'old\n')
    await ws.run(readTool, { path: 'x.txt' })
    const out = await ws.run(writeTool, { path: 'x.txt', content: 'new\n' })
    expect(out.display).toEqual({ kind: 'diff', path: 'x.txt', before: 'old\n', after: 'new\n' })
  })

  it('has the whole file before and after an Edit', async () => {
    await writeFile(path.join(ws.root, 'x.ts'), 'const a = 1\nconst b = 2\n')
    await ws.run(readTool, { path: 'x.ts' })
    const out = await ws.run(editTool, { path: 'x.ts', old: 'b = 2', new: 'b = 3' })
    expect(out.display).toEqual({
      kind: 'diff',
      path: 'x.ts',
      before: 'const a = 1\nconst b = 2\n',
      after: 'const a = 1\nconst b = 3\n'
    })
  })

  it('is left out when the file is too large to copy into the window', async () => {
    const big = 'x'.repeat(DIFF_DISPLAY_MAX_BYTES + 1)
    const out = await ws.run(writeTool, { path: 'big.txt', content: big })
    expect(out.isError).toBe(false)
    expect(out.display).toBeUndefined()
  })
})
