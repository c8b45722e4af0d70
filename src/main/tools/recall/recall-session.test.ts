import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import YAML from 'yaml'
import {
  startFakeModelServer,
  type FakeModelServer
} from '../../../../e2e/fixtures/fake-model-server'
import { createCore, type Core } from '../../core'

let dir: string
let fake: FakeModelServer
let core: Core
afterEach(async () => {
  await core?.dispose()
  await fake?.close()
  await rm(dir, { recursive: true, force: true })
})

describe('RecallSession', () => {
  it("finds what was said earlier in the session's own history, and adds no taint", async () => {
    dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-recall-')))
    const workspace = path.join(dir, 'project')
    await mkdir(workspace)
    fake = await startFakeModelServer()
    const config = path.join(dir, 'settings.yaml')
    await writeFile(
      config,
      YAML.stringify({
        providers: [{ id: 'fake', kind: 'openai-compatible', base_url: fake.openaiBaseUrl }],
        default_model: { provider: 'fake', model: 'fake-model' },
        permissions: { mode: 'ask' }
      })
    )
    core = await createCore({
      dataDir: path.join(dir, 'home'),
      configPath: config,
      host: 'cli',
      interactive: false
    })
    fake.setScript([
      { text: 'Noted: the release is called Pelican.' },
      { toolCalls: [{ name: 'RecallSession', input: { query: 'PELICAN release' } }] },
      { text: 'done' }
    ])
    const session = await core.sessions.create(workspace)
    await core.sessions.send(session.id, 'Remember that the release is called Pelican')
    await core.sessions.idle(session.id)
    await core.sessions.send(session.id, 'What was the release called?')
    await core.sessions.idle(session.id)

    const [result] = fake.lastToolResults()
    expect(result?.content).toContain('#0 person')
    expect(result?.content).toContain('Remember that the release is called Pelican')
    expect(result?.content).toContain('Noted: the release is called Pelican.')
    expect(result?.content.indexOf('Noted')).toBeLessThan(result?.content.indexOf('#0') ?? 0)
    expect(core.sessions.get(session.id).taint).toEqual({
      privateData: false,
      untrustedInput: false
    })
  })
})
