import { mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeModelServer, type FakeModelServer } from '../../../testing/fake-model-server'
import { makeTempDir, writeFakeSettings, type CliResult } from '../../../testing/cli-runner'
import { runCliInProcess } from '../../../testing/cli-in-process'
import { WorkspaceTrust } from '../workspace/workspace-trust'

// `mecatl run` has nobody to ask whether a folder's authors are trusted: a folder never trusted
// in the window is untrusted, and the run says so; --trust-project trusts it for that run only.
let dir: string
let workspace: string
let home: string
let config: string
let fake: FakeModelServer

beforeAll(async () => {
  dir = await makeTempDir('run-trust')
  workspace = path.join(dir, 'project')
  home = path.join(dir, 'home')
  await mkdir(workspace)
  await writeFile(path.join(workspace, 'README.md'), '# Sample\n')
  fake = await startFakeModelServer({ requireKey: 'sk-test' })
  config = await writeFakeSettings(path.join(dir, 'settings.yaml'), fake)
}, 120_000)

afterAll(async () => {
  await fake?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

function run(...flags: string[]): Promise<CliResult> {
  fake.setScript([
    { toolCalls: [{ name: 'Read', input: { path: 'README.md' } }] },
    { text: 'read it' }
  ])
  return runCliInProcess(
    ['run', 'Read the README', '--workspace', workspace, '--config', config, ...flags],
    {
      home,
      env: { FAKE_KEY: 'sk-test' }
    }
  )
}

describe('mecatl run in a folder nobody trusted', () => {
  it('runs, says the folder is untrusted and how to trust it', async () => {
    const result = await run()
    expect(result.code).toBe(0)
    expect(result.stderr).toContain('is not a trusted folder')
    expect(result.stderr).toContain('--trust-project')
  })

  it('with --json says it in the session summary instead', async () => {
    const result = await run('--json')
    expect(result.code).toBe(0)
    expect(result.stderr).toBe('')
    expect(result.stdout).toContain('"folderTrust":"untrusted"')
  })

  it('with --trust-project counts the folder as trusted for that run, and stores nothing', async () => {
    const result = await run('--trust-project', '--json')
    expect(result.code).toBe(0)
    expect(result.stdout).not.toContain('folderTrust')
    expect(result.stdout).toContain('"untrustedInput":false')
    expect(await new WorkspaceTrust(home).get(workspace)).toBe('unknown')
  })
})
