import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../core'
import { createMemoryPair, type RpcClient } from '../rpc/memory-transport'
import type { HostHooks } from '../host-hooks'

let dir: string | null = null
let core: Core | null = null
let client: RpcClient | null = null

async function start(hooks: HostHooks): Promise<RpcClient> {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mecatl-notify-'))
  core = await createCore({ dataDir: dir, host: 'electron', interactive: true, hooks })
  client = createMemoryPair(core.router, core.hub, 'ipc:7')
  return client
}

afterEach(async () => {
  client?.close()
  await core?.dispose()
  if (dir) await rm(dir, { recursive: true, force: true })
  client = core = dir = null
})

describe('app.notify', () => {
  it('has the host show it for the calling window, and tells windows of the click', async () => {
    const shown: { notice: unknown; caller: string }[] = []
    const clicks: (() => void)[] = []
    const rpc = await start({
      notify: async (notice, caller, clicked) => {
        shown.push({ notice, caller })
        clicks.push(clicked)
        return true
      }
    })
    const events: unknown[] = []
    rpc.subscribe((frame) => events.push(frame))
    const notice = { title: 'Fix the bug', body: 'Mecatl finished.', tag: 's1:turn' }
    expect(await rpc.call('app.notify', notice)).toEqual({ shown: true })
    expect(shown).toEqual([{ notice, caller: 'ipc:7' }])
    expect(clicks).toHaveLength(1)
    clicks[0]?.()
    await expect
      .poll(() => events)
      .toContainEqual({
        event: 'notification.clicked',
        payload: { tag: 's1:turn' }
      })
  })

  it('answers that none was shown where the host has no notifications (browser mode)', async () => {
    const rpc = await start({})
    expect(await rpc.call('app.notify', { title: 't', body: 'b', tag: 'x' })).toEqual({
      shown: false
    })
  })

  it('refuses malformed notices before the host sees them', async () => {
    let calls = 0
    const rpc = await start({
      notify: async () => {
        calls += 1
        return true
      }
    })
    const bad = [
      { title: 't', body: 'b', tag: '' },
      { title: 't', body: 'b'.repeat(5000), tag: 'x' },
      { title: 't', body: 'b', tag: 'x', icon: 'file:///etc/passwd' }
    ]
    for (const input of bad) {
      await expect(rpc.call('app.notify', input as never)).rejects.toThrow()
    }
    expect(calls).toBe(0)
  })
})
