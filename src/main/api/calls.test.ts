import { chmod, mkdir, mkdtemp, realpath, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeModelServer, type FakeModelServer } from '../../../testing/fake-model-server'
import { createCore, type Core } from '../core'
import { createMemoryPair, type RpcClient } from '../rpc/memory-transport'

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
      error: expect.stringMatching(/127\.0\.0\.1:9\): its port is one the HTTP client will not use/)
    })
    // Named and not set is missing for every kind, not a 401 from a server that wanted a key.
    for (const kind of ['openai-compatible', 'openai', 'anthropic'] as const) {
      const unset = await client.call('provider.test', {
        provider: { id: 'o', kind, base_url: fake.openaiBaseUrl, api_key_env: 'NOT_SET_ANYWHERE' }
      })
      expect(unset).toMatchObject({
        ok: false,
        error: expect.stringMatching(/NOT_SET_ANYWHERE, which is not set/)
      })
    }
    const malformed = await client.call('provider.test', {
      provider: { id: 'o', kind: 'openai-compatible', base_url: '127.0.0.1:11434/v1' }
    })
    expect(malformed).toEqual({
      ok: false,
      error: expect.stringMatching(/has no scheme: start it with http:\/\/ or https:\/\//)
    })
    const missingVar = await client.call('provider.test', {
      provider: { id: 'a', kind: 'anthropic', api_key_env: 'NOT_SET_ANYWHERE' }
    })
    expect(missingVar).toMatchObject({
      ok: false,
      error: expect.stringMatching(/NOT_SET_ANYWHERE, which is not set/)
    })
  })

  it('keeps a key typed in browser mode in a 0600 file of the data directory and uses it', async () => {
    const info = await client.call('app.info', {})
    const keyFile = path.join(dir, 'home', 'provider-keys.json')
    expect(info).toMatchObject({ canStoreSecrets: true, keyFile })
    expect(await client.call('secrets.store', { name: 'o.api_key', value: 'k-1' })).toEqual({
      stored: true
    })
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600)
    const provider = {
      id: 'o',
      kind: 'openai',
      base_url: fake.openaiBaseUrl,
      api_key_secret: 'o.api_key'
    }
    expect(await client.call('provider.test', { provider })).toMatchObject({ ok: true })
    // Fail closed: once others can read the file, its keys are refused, with the way out.
    await chmod(keyFile, 0o644)
    expect(await client.call('provider.test', { provider })).toEqual({
      ok: false,
      error: expect.stringMatching(/can be read by others \(mode 0644\).*chmod 600/)
    })
    await chmod(keyFile, 0o600)
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
    // No folder picker; keys go to the 0600 key file instead of a keychain (see above).
    expect(info).toMatchObject({ mode: 'browser', canPickFolder: false, canStoreSecrets: true })
  })
})
