import { spawn } from 'node:child_process'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeModelServer, type FakeModelServer } from '../../../testing/fake-model-server'
import {
  cliPath,
  ensureCliBuilt,
  makeTempDir,
  runCli,
  type CliResult,
  writeFakeSettings
} from '../../../testing/cli-runner'

// Each command is a real process whose stdout is a pipe, as in `mecatl sessions export ID | jq`:
// what it prints must arrive whole, and its exit code must say how the run ended.
let dir: string
let workspace: string
let home: string
let config: string
let fake: FakeModelServer

/** Well past the 64 KiB a pipe holds, which is where an early exit used to cut the output. */
const bigReply = 'All of this reply must arrive. '.repeat(20_000)

beforeAll(async () => {
  ensureCliBuilt()
  dir = await makeTempDir('cli-output')
  workspace = path.join(dir, 'project')
  home = path.join(dir, 'home')
  await mkdir(workspace)
  await writeFile(
    path.join(workspace, 'big.txt'),
    `a line of a large file ${'.'.repeat(300)}\n`.repeat(3000)
  )
  fake = await startFakeModelServer({ requireKey: 'sk-test' })
  config = await writeFakeSettings(path.join(dir, 'settings.yaml'), fake)
}, 120_000)

afterAll(async () => {
  await fake?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

function mecatl(args: string[]): Promise<CliResult> {
  return runCli(args, { home, env: { FAKE_KEY: 'sk-test' }, timeoutMs: 60_000 })
}

function jsonLines(text: string): { type: string; sessionId?: string; stopReason?: string }[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { type: string })
}

describe('the CLI prints everything before it exits', () => {
  let sessionId = ''

  it('run --json: every event of a large reply, ending with turn.completed', async () => {
    fake.setScript([{ text: bigReply }])
    const run = await mecatl([
      'run',
      'Say a lot',
      '--workspace',
      workspace,
      '--config',
      config,
      '--json'
    ])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout.length).toBeGreaterThan(bigReply.length)
    const events = jsonLines(run.stdout)
    const types = events.map((e) => e.type)
    expect(events.find((e) => e.type === 'turn.completed')?.stopReason).toBe('end_turn')
    expect(types.lastIndexOf('turn.completed')).toBeGreaterThan(types.lastIndexOf('message.delta'))
    sessionId = events.find((e) => e.sessionId)?.sessionId ?? ''
    expect(sessionId).not.toBe('')
  })

  it('sessions export, show and show --json: the whole session', async () => {
    const jsonl = await mecatl(['sessions', 'export', sessionId])
    expect(jsonl.code).toBe(0)
    const events = jsonLines(jsonl.stdout)
    expect(jsonl.stdout.length).toBeGreaterThan(bigReply.length)
    expect(events.map((e) => e.type)).toContain('turn.completed')
    expect(jsonl.stdout).toContain(bigReply)

    const markdown = await mecatl(['sessions', 'export', sessionId, '--format', 'md'])
    expect(markdown.stdout).toContain(bigReply)
    const shown = await mecatl(['sessions', 'show', sessionId])
    expect(shown.stdout).toContain(bigReply)
    const asJson = await mecatl(['sessions', 'show', sessionId, '--json'])
    const parsed = JSON.parse(asJson.stdout) as { session: { id: string } }
    expect(parsed.session.id).toBe(sessionId)
    expect(asJson.stdout).toContain(bigReply)
  })

  it('call: a large result as one whole JSON document', async () => {
    const call = await mecatl(['call', 'Read', '{"path":"big.txt"}', '--workspace', workspace])
    expect(call.code).toBe(0)
    expect(call.stdout.length).toBeGreaterThan(65_536)
    const printed = JSON.parse(call.stdout) as { content: { text: string }[] }
    expect(printed.content[0]?.text).toContain('a line of a large file')
  })
})

describe("run's exit codes", () => {
  it('exits 3 and says so when the model is stopped at the step limit', async () => {
    fake.setScript(
      Array.from({ length: 60 }, () => ({ toolCalls: [{ name: 'ListDir', input: {} }] }))
    )
    const run = await mecatl(['run', 'Loop', '--workspace', workspace, '--config', config])
    expect(run.code).toBe(3)
    expect(run.stderr).toMatch(/stopped at the step limit before it finished/)
    // Fifty model requests on one turn's signal once piled up its abort listeners.
    expect(run.stderr).not.toMatch(/Warning|MaxListeners/)
  })

  it('exits 130 when cancelled with Ctrl-C', async () => {
    fake.setScript([{ text: 'slow words '.repeat(200), chunkDelayMs: 50 }])
    const child = spawn(
      process.execPath,
      [cliPath, 'run', 'Talk slowly', '--workspace', workspace, '--config', config, '--json'],
      { env: { PATH: process.env.PATH, MECATL_HOME: home, FAKE_KEY: 'sk-test' } }
    )
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    let interrupted = false
    createInterface({ input: child.stdout }).on('line', (line) => {
      const event = JSON.parse(line) as { type: string }
      if (event.type === 'message.delta' && !interrupted) {
        interrupted = true
        child.kill('SIGINT')
      }
    })
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(interrupted).toBe(true)
    expect(code).toBe(130)
    expect(stderr).toMatch(/cancelled/)
  })
})
