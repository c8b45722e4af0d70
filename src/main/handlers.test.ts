import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeModelServer, type FakeModelServer } from './testing/fake-model-server'
import { createCore, type Core } from './core'
import { createMemoryPair, type RpcClient } from './rpc/memory-transport'

let dir: string
let core: Core
let client: RpcClient
let fake: FakeModelServer

beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-handlers-')))
  await mkdir(path.join(dir, 'one'))
  await mkdir(path.join(dir, 'two'))
  await writeFile(path.join(dir, 'file.txt'), 'not a folder')
  fake = await startFakeModelServer({ models: ['big-model', 'small-model'], requireKey: 'k-1' })
  core = await createCore({
    dataDir: path.join(dir, 'home'),
    host: 'browser',
    interactive: true,
    env: { GOOD_KEY: 'k-1', BAD_KEY: 'k-2' }
  })
  client = createMemoryPair(core.router, core.hub)
})
afterAll(async () => {
  client.close()
  await core.dispose()
  await fake.close()
  await rm(dir, { recursive: true, force: true })
})

describe('provider settings', () => {
  it('lists the models an endpoint offers when its Test button is pressed', async () => {
    for (const provider of [
      { id: 'o', kind: 'openai-compatible', base_url: fake.openaiBaseUrl, api_key_env: 'GOOD_KEY' },
      { id: 'a', kind: 'anthropic', base_url: fake.anthropicBaseUrl, api_key_env: 'GOOD_KEY' }
    ]) {
      expect(await client.call('provider.test', { provider })).toEqual({
        ok: true,
        models: ['big-model', 'small-model']
      })
    }
  })

  it('shows the endpoint error when the key is wrong or the server is not there', async () => {
    const wrongKey = await client.call('provider.test', {
      provider: { id: 'o', kind: 'openai', base_url: fake.openaiBaseUrl, api_key_env: 'BAD_KEY' }
    })
    expect(wrongKey).toMatchObject({
      ok: false,
      error: expect.stringMatching(/refused the API key \(401\)/)
    })
    const unreachable = await client.call('provider.test', {
      provider: { id: 'o', kind: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1' }
    })
    expect(unreachable).toMatchObject({
      ok: false,
      error: expect.stringMatching(/could not be reached/)
    })
    const missingVar = await client.call('provider.test', {
      provider: { id: 'a', kind: 'anthropic', api_key_env: 'NOT_SET_ANYWHERE' }
    })
    expect(missingVar).toMatchObject({
      ok: false,
      error: expect.stringMatching(/NOT_SET_ANYWHERE, which is not set/)
    })
  })

  it('explains an invalid provider form instead of testing it', async () => {
    const result = await client.call('provider.test', {
      provider: { id: 'x', kind: 'openai-compatible' }
    })
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/^base_url: /) })
  })

  it('saves providers and offers their models to the model picker', async () => {
    const saved = await client.call('settings.save', {
      settings: {
        providers: [
          {
            id: 'local',
            kind: 'openai-compatible',
            base_url: fake.openaiBaseUrl,
            models: ['big-model']
          }
        ],
        default_model: { provider: 'local', model: 'big-model' }
      }
    })
    expect(saved).toEqual({ saved: true, issues: [] })
    expect(await client.call('provider.models', {})).toEqual({
      models: [
        {
          providerId: 'local',
          model: 'big-model',
          providerKind: 'openai-compatible',
          contextWindow: 128_000,
          images: false,
          isDefault: true
        }
      ],
      defaultModel: { providerId: 'local', model: 'big-model' }
    })
    const settings = await client.call('settings.get', {})
    expect(settings.issues).toEqual([])
    expect(settings.path).toBe(path.join(dir, 'home', 'settings.yaml'))
  })
})

describe('sessions and folders', () => {
  it('keeps each folder’s sessions apart', async () => {
    const one = path.join(dir, 'one')
    const first = await client.call('session.create', { workspace: one })
    const second = await client.call('session.create', { workspace: one })
    await client.call('session.create', { workspace: path.join(dir, 'two') })
    const listed = await client.call('session.list', { workspace: one })
    expect(listed.sessions.map((s) => s.id).sort()).toEqual([first.id, second.id].sort())
    expect(first.model).toEqual({ providerId: 'local', model: 'big-model' })
  })

  it('refuses to open something that is not a folder, and remembers folders that are', async () => {
    await expect(
      client.call('workspace.open', { path: path.join(dir, 'file.txt') })
    ).rejects.toThrow(/is not a folder/)
    await client.call('workspace.open', { path: path.join(dir, 'two') })
    await client.call('workspace.open', { path: path.join(dir, 'one') })
    const recent = await client.call('workspace.recent', {})
    expect(recent.folders.map((f) => f.path)).toEqual([
      path.join(dir, 'one'),
      path.join(dir, 'two')
    ])
  })

  it('refuses a model from a provider that does not exist', async () => {
    const session = await client.call('session.create', { workspace: path.join(dir, 'one') })
    await expect(
      client.call('session.setModel', {
        sessionId: session.id,
        model: { providerId: 'ghost', model: 'x' }
      })
    ).rejects.toThrow(/no provider "ghost"/)
  })

  it('says what browser mode cannot do instead of pretending', async () => {
    const info = await client.call('app.info', {})
    expect(info).toMatchObject({ mode: 'browser', canPickFolder: false, canStoreSecrets: false })
    await expect(client.call('secrets.store', { name: 'k', value: 'v' })).rejects.toThrow(
      /needs the desktop app/
    )
  })
})
