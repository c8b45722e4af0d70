import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventFrame } from '../../shared/contract/bridge'
import { createCore, type Core } from '../core'
import { createMemoryPair, type RpcClient } from '../rpc/memory-transport'
import { projectOwner, userOwner } from '../store/memory-store'

// The memory browser's calls through the router, over a core with its real database.
let dir: string
let project: string
let core: Core
let client: RpcClient
const events: EventFrame[] = []

beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-memory-rpc-')))
  project = path.join(dir, 'project')
  await mkdir(project)
  core = await createCore({ dataDir: path.join(dir, 'home'), host: 'browser', interactive: true })
  client = createMemoryPair(core.router, core.hub)
  client.subscribe((frame) => events.push(frame))
})
afterAll(async () => {
  client.close()
  await core.dispose()
  await rm(dir, { recursive: true, force: true })
})

describe('the memory browser calls', () => {
  it('lists every entry with an empty query, forgotten ones too, and searches live ones', async () => {
    const memory = core.store.memory
    const owner = projectOwner(project)
    memory.remember(owner, 'kept', 'the release checklist lives in RELEASE.md', 's1')
    const gone = memory.remember(owner, 'dropped', 'an old release note', 's1').entry
    memory.forget(owner, 'dropped', gone.version, 's1')
    const all = await client.call('memory.search', { scope: 'project', workspace: project })
    expect(all.items.map((i) => [i.name, i.state])).toEqual([
      ['dropped', 'forgotten'],
      ['kept', 'live']
    ])
    const found = await client.call('memory.search', {
      scope: 'project',
      workspace: project,
      query: 'relea'
    })
    expect(found.items.map((i) => i.name)).toEqual(['kept'])
    const { text, ranges } = found.items[0]?.snippet ?? { text: '', ranges: [] }
    expect(ranges.map(([s, e]) => text.slice(s, e))).toEqual(['release', 'RELEASE'])
  })

  it('forgets and undoes on the version shown, as the person, and refuses a stale one', async () => {
    const owner = projectOwner(project)
    const shown = core.store.memory.remember(owner, 'style', 'tabs', 's1').entry
    const target = { scope: 'project' as const, workspace: project, name: 'style' }
    const forgotten = await client.call('memory.forget', {
      ...target,
      expectedVersion: shown.version
    })
    expect(forgotten.entry).toMatchObject({ state: 'forgotten', sessionId: null })
    expect(forgotten.origin).toMatchObject({ sessionId: 's1', content: 'tabs' })
    await expect(
      client.call('memory.undo', { ...target, expectedVersion: shown.version })
    ).rejects.toMatchObject({ code: 'conflict', message: /changed after it was shown/ })
    const undone = await client.call('memory.undo', {
      ...target,
      expectedVersion: forgotten.entry.version
    })
    expect(undone.entry).toMatchObject({ state: 'live', content: 'tabs', lastKind: 'undo' })
    expect(undone.history.map((r) => r.kind)).toEqual(['undo', 'forget', 'remember'])
    expect(events.filter((e) => e.event === 'memory.changed').map((e) => e.payload)).toContainEqual(
      { scope: 'project', workspace: project, name: 'style' }
    )
  })

  it('needs the project folder for project memory, but not for the user model', async () => {
    await expect(client.call('memory.search', { scope: 'project' })).rejects.toMatchObject({
      code: 'invalid_input'
    })
    core.store.memory.remember(userOwner, 'tone', 'short answers', 's1')
    const user = await client.call('memory.search', { scope: 'user', query: 'short' })
    expect(user.items.map((i) => i.name)).toEqual(['tone'])
    await expect(
      client.call('memory.inspect', { scope: 'user', name: 'missing' })
    ).rejects.toMatchObject({ code: 'not_found' })
  })
})
