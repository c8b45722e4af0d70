import { mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fsTools } from '.'
import { dispatch } from '../../agent/dispatcher'
import { Gate, type Approver } from '../../gate/gate'
import { Catalog } from '../catalog'
import type { Tool } from '../tool'
import { copyTool } from './copy'
import { editTool } from './edit'
import { moveTool } from './move'
import { readTool } from './read'
import { removeTool } from './remove'
import {
  createTestWorkspace,
  textOf,
  type TestWorkspace
} from '../../../../testing/fs-test-context'
import { writeTool } from './write'

// The gate judges where a call writes before it runs; a link made in between (by a background
// job, say) could move an approved `notes/config` into `.git/config`. The tools check again when
// they act, and only a call a person approved as a write into .git may change anything there.
let ws: TestWorkspace
const config = '[core]\n\tbare = false\n'

beforeEach(async () => {
  ws = await createTestWorkspace()
  await mkdir(path.join(ws.root, '.git', 'hooks'), { recursive: true })
  await writeFile(path.join(ws.root, '.git', 'config'), config)
  await writeFile(path.join(ws.root, 'plain.txt'), 'plain\n')
  // What the gate saw as an ordinary folder is now a link into .git.
  await symlink('.git', path.join(ws.root, 'notes'))
})
afterEach(async () => ws.cleanup())

async function gitFolder(): Promise<{ config: string; hooks: string[]; top: string[] }> {
  return {
    config: await readFile(path.join(ws.root, '.git', 'config'), 'utf8'),
    hooks: await readdir(path.join(ws.root, '.git', 'hooks')),
    top: (await readdir(path.join(ws.root, '.git'))).sort()
  }
}

describe('a file tool acting on a path that now leads into .git', () => {
  it('refuses to change anything there unless a person approved a .git write', async () => {
    await ws.run(readTool, { path: 'notes/config' })
    const attempts: [Tool, Record<string, unknown>][] = [
      [writeTool, { path: 'notes/hooks/post-checkout', content: '#!/bin/sh\ntouch owned\n' }],
      [writeTool, { path: 'notes/config', content: '[core]\n\tfsmonitor = touch owned\n' }],
      [editTool, { path: 'notes/config', old: 'bare = false', new: 'fsmonitor = touch owned' }],
      [copyTool, { source: 'plain.txt', destination: 'notes/hooks/pre-commit' }],
      [moveTool, { source: 'plain.txt', destination: 'notes/hooks/pre-push' }],
      [moveTool, { source: 'notes/config', destination: 'stolen-config' }],
      [removeTool, { path: 'notes/config' }]
    ]
    const before = await gitFolder()
    for (const [tool, input] of attempts) {
      const result = await ws.run(tool, input)
      expect(result.isError, `${tool.name} ${JSON.stringify(input)}`).toBe(true)
      expect(textOf(result)).toMatch(/changed while it was being opened/)
    }
    expect(await gitFolder()).toEqual(before)
    expect(await readFile(path.join(ws.root, 'plain.txt'), 'utf8')).toBe('plain\n')
  })

  it('acts there when a person approved the call as a write into .git', async () => {
    const approved = { ...ws.ctx, gitWriteApproved: true }
    await readTool.call(readTool.inputSchema.parse({ path: 'notes/config' }), approved)
    const result = await writeTool.call(
      writeTool.inputSchema.parse({ path: 'notes/config', content: '[core]\n' }),
      approved
    )
    expect(result.isError).toBe(false)
    expect(await readFile(path.join(ws.root, '.git', 'config'), 'utf8')).toBe('[core]\n')
  })

  it('leaves ordinary writes alone', async () => {
    await rm(path.join(ws.root, 'notes'))
    const result = await ws.run(writeTool, { path: 'notes/today.md', content: 'hi\n' })
    expect(result.isError).toBe(false)
  })
})

describe('a .git write a person approved through the gate', () => {
  it('reaches the tool as approved, so it runs there', async () => {
    const person: Approver = { canAsk: true, ask: async () => ({ decision: 'allow' }) }
    const gate = new Gate({ mode: 'allow', workspace: ws.root }, person)
    const [result] = await dispatch(
      [{ id: 'c1', name: 'Write', input: { path: '.git/hooks/pre-commit', content: 'exit 0\n' } }],
      {
        sessionId: 's1',
        catalog: new Catalog(fsTools()),
        gate,
        context: ws.ctx,
        onUpdate: () => undefined
      }
    )
    expect(result?.output.isError, textOf(result!.output)).toBe(false)
    expect(await readFile(path.join(ws.root, '.git', 'hooks', 'pre-commit'), 'utf8')).toBe(
      'exit 0\n'
    )
  })
})
