import { mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import YAML from 'yaml'
import { startFakeModelServer, type FakeModelServer } from '../../../testing/fake-model-server'
import { makeTempDir, type CliResult } from '../../../testing/cli-runner'
import { runCliInProcess } from '../../../testing/cli-in-process'

// A real CLI process records a priced turn; another prints the session's total from the record.
let dir: string
let workspace: string
let home: string
let config: string
let fake: FakeModelServer

beforeAll(async () => {
  dir = await makeTempDir('cost')
  workspace = path.join(dir, 'project')
  home = path.join(dir, 'home')
  await mkdir(workspace)
  await writeFile(path.join(workspace, 'a.txt'), 'alpha\n')
  fake = await startFakeModelServer({
    requireKey: 'sk-test',
    script: [
      {
        toolCalls: [{ name: 'Read', input: { path: 'a.txt' } }],
        usage: { input: 2_000_000, output: 1_000_000, cached: 0 }
      },
      { text: 'It says alpha.', usage: { input: 3_000_000, output: 1_000_000, cached: 2_000_000 } }
    ]
  })
  config = path.join(dir, 'settings.yaml')
  await writeFile(
    config,
    YAML.stringify({
      providers: [
        {
          id: 'fake',
          kind: 'openai',
          base_url: fake.openaiBaseUrl,
          api_key_env: 'FAKE_KEY',
          // A model no table knows, priced by the person: $1 in, $0.25 cached, $2 out.
          prices: { 'fake-model': { input: 1, output: 2, cache_read: 0.25 } }
        }
      ],
      default_model: { provider: 'fake', model: 'fake-model' },
      permissions: { mode: 'allow' }
    })
  )
}, 120_000)

afterAll(async () => {
  await fake?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

function mecatl(args: string[]): Promise<CliResult> {
  return runCliInProcess(args, { home, env: { FAKE_KEY: 'sk-test' } })
}

describe('a session’s cost in the CLI', () => {
  it('run --json carries the turn’s cost; sessions show prints the session’s total', async () => {
    const run = await mecatl([
      'run',
      'What is in a.txt?',
      '--workspace',
      workspace,
      '--config',
      config,
      '--json'
    ])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; sessionId?: string; cost?: unknown })
    // Fresh 2M + 1M at $1, cached 2M at $0.25, 2M out at $2: $7.50.
    expect(events.find((e) => e.type === 'turn.completed')?.cost).toEqual({
      usd: 7.5,
      source: 'settings'
    })
    const sessionId = events.find((e) => e.sessionId)?.sessionId ?? ''

    const shown = await mecatl(['sessions', 'show', sessionId])
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain('- Cost: $7.50 over 1 turn')
    expect(shown.stdout).toContain('cost $7.50')

    const asJson = await mecatl(['sessions', 'show', sessionId, '--json'])
    const parsed = JSON.parse(asJson.stdout) as { cost: unknown }
    expect(parsed.cost).toEqual({ usd: 7.5, pricedTurns: 1, unpricedTurns: 0 })
  })
})
