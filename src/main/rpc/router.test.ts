import { mkdtemp, realpath, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RpcError } from '../../shared/contract'
import type { EventFrame } from '../../shared/contract/bridge'
import { createCore, type Core } from '../core'
import { openConnection } from './connection'
import { createMemoryPair } from './memory-transport'

let dir: string
let core: Core

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-rpc-')))
  core = await createCore({ dataDir: path.join(dir, 'home'), host: 'cli', interactive: true })
})
afterEach(async () => {
  await core.dispose()
  await rm(dir, { recursive: true, force: true })
})

describe('router', () => {
  it('answers a valid call with its typed result', async () => {
    const response = await core.router.handle('tools.list', {}, { caller: 'test' })
    expect(response.ok).toBe(true)
    const names = (response as { result: { tools: { name: string }[] } }).result.tools.map(
      (t) => t.name
    )
    expect(names).toEqual([...names].sort())
    expect(names).toEqual(
      expect.arrayContaining(['Copy', 'Edit', 'Glob', 'Grep', 'ListDir', 'Move', 'Read', 'Remove'])
    )
  })

  it('rejects a bad input before the handler runs, naming the field', async () => {
    const response = await core.router.handle('session.send', { sessionId: 42 }, { caller: 't' })
    expect(response).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    const error = (response as { error: { issues: { path: string }[] } }).error
    expect(error.issues.map((i) => i.path)).toEqual(expect.arrayContaining(['sessionId', 'text']))
  })

  it('rejects unknown methods and extra fields', async () => {
    expect(await core.router.handle('fs.deleteEverything', {}, { caller: 't' })).toMatchObject({
      ok: false,
      error: { code: 'unknown_method' }
    })
    expect(await core.router.handle('tools.list', { sneaky: 1 }, { caller: 't' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' }
    })
  })

  it('turns a handler failure into a typed error, never a throw', async () => {
    const response = await core.router.handle('session.get', { sessionId: 'nope' }, { caller: 't' })
    expect(response).toMatchObject({ ok: false, error: { code: 'not_found' } })
  })
})

describe('in-memory transport', () => {
  it('carries calls and typed errors both ways', async () => {
    const client = createMemoryPair(core.router, core.hub)
    const opened = await client.call('workspace.open', { path: dir })
    expect(opened).toEqual({ path: dir, openedElsewhere: false, trust: 'unknown' })
    await expect(
      client.call('workspace.open', { path: path.join(dir, 'missing') })
    ).rejects.toThrow(RpcError)
    expect((await client.call('workspace.recent', {})).folders[0]?.path).toBe(dir)
    client.close()
  })

  it('delivers events to a subscribed client', async () => {
    const client = createMemoryPair(core.router, core.hub)
    const seen: EventFrame[] = []
    client.subscribe((frame) => seen.push(frame))
    const session = await client.call('session.create', { workspace: dir })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(seen).toContainEqual({ event: 'session.updated', payload: session })
    client.close()
  })
})

describe('connection', () => {
  it('queues events until the client is ready, then delivers them in order', async () => {
    const sent: unknown[] = []
    const connection = openConnection(core.router, core.hub, 'test', (frame) => sent.push(frame))
    const first = await core.sessions.create(dir)
    const second = await core.sessions.create(dir)
    expect(sent).toEqual([])
    connection.receive({ kind: 'ready' })
    expect(sent).toEqual([
      { kind: 'event', event: 'session.updated', payload: first.summary() },
      { kind: 'event', event: 'session.updated', payload: second.summary() }
    ])
    connection.close()
  })

  it('ignores frames that are not part of the protocol', async () => {
    const sent: unknown[] = []
    const connection = openConnection(core.router, core.hub, 'test', (frame) => sent.push(frame))
    connection.receive('garbage')
    connection.receive({ kind: 'call', id: 'not-a-number', method: 'tools.list' })
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(sent).toEqual([])
    connection.close()
  })
})
