import { spawn } from 'node:child_process'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeModelServer, type FakeModelServer } from '../../../testing/fake-model-server'
import type { TranscriptItem } from '../../shared/domain'
import { openStore } from '../store/store'
import {
  cliPath as cli,
  ensureCliBuilt,
  makeTempDir,
  runCli,
  type CliResult,
  writeFakeSettings
} from '../../../testing/cli-runner'

// A real CLI process, killed for real: what it recorded must be there, whole, afterwards.
let dir: string
let workspace: string
let home: string
let config: string
let fake: FakeModelServer

const slowReply = 'The file says alpha. '.repeat(40)

beforeAll(async () => {
  ensureCliBuilt()
  dir = await makeTempDir('kill')
  workspace = path.join(dir, 'project')
  home = path.join(dir, 'home')
  await mkdir(workspace)
  await writeFile(path.join(workspace, 'a.txt'), 'alpha\n')
  fake = await startFakeModelServer({
    requireKey: 'sk-test',
    script: [
      { text: 'Reading it.', toolCalls: [{ name: 'Read', input: { path: 'a.txt' } }] },
      // Slow enough that the process is killed long before the reply ends.
      { text: slowReply, chunkDelayMs: 100 }
    ]
  })
  config = await writeFakeSettings(path.join(dir, 'settings.yaml'), fake)
}, 120_000)

afterAll(async () => {
  await fake?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

function mecatl(args: string[]): Promise<CliResult> {
  return runCli(args, { home })
}

/**
 * Runs `run --json` and kills it with SIGKILL at the first streamed word of the reply that
 * follows the tool result; resolves with the session's id.
 */
function runAndKill(): Promise<string> {
  const child = spawn(
    process.execPath,
    [cli, 'run', 'What is in a.txt?', '--workspace', workspace, '--config', config, '--json'],
    { env: { PATH: process.env.PATH, MECATL_HOME: home, FAKE_KEY: 'sk-test' } }
  )
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  return new Promise((resolve, reject) => {
    let sessionId = ''
    let toolDone = false
    createInterface({ input: child.stdout }).on('line', (line) => {
      const event = JSON.parse(line) as { type: string; sessionId?: string; item?: TranscriptItem }
      if (event.sessionId) sessionId = event.sessionId
      if (event.item?.kind === 'tool' && event.item.call.state === 'done') toolDone = true
      if (event.type === 'message.delta' && toolDone && child.exitCode === null) {
        child.kill('SIGKILL')
      }
    })
    child.once('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(sessionId)
      else
        reject(new Error(`run ended by itself (${String(code)}) before it was killed\n${stderr}`))
    })
  })
}

describe('a run killed with SIGKILL mid-turn', () => {
  it('leaves a transcript that holds everything recorded before the kill and opens cleanly', async () => {
    const sessionId = await runAndKill()
    expect(sessionId).not.toBe('')

    const store = openStore(home)
    try {
      expect(store.database.db.pragma('integrity_check', { simple: true })).toBe('ok')
      const stored = store.sessions.get(sessionId)
      expect(stored).toMatchObject({ title: 'What is in a.txt?', workspace })
    } finally {
      store.close()
    }

    const shown = await mecatl(['sessions', 'show', sessionId, '--json'])
    expect(shown.code).toBe(0)
    const { transcript } = JSON.parse(shown.stdout) as { transcript: TranscriptItem[] }
    expect(transcript.map((i) => i.kind)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'turn-end'
    ])
    expect(transcript[0]).toMatchObject({ kind: 'user', text: 'What is in a.txt?' })
    const tool = transcript[2]
    expect(tool?.kind === 'tool' && tool.call).toMatchObject({ name: 'Read', state: 'done' })
    expect(JSON.stringify(tool?.kind === 'tool' && tool.call.output)).toContain('alpha')
    // The reply being streamed when the process died: whatever of it was saved, never more.
    const cut = transcript[3]
    // The first words were saved before `run` printed them, and it was killed after that.
    expect(cut?.kind === 'assistant' && cut.text).not.toBe('')
    expect(cut?.kind === 'assistant' && slowReply.startsWith(cut.text)).toBe(true)
    expect(cut).toMatchObject({ streaming: false })
    expect(transcript[4]).toMatchObject({ kind: 'turn-end', stopReason: 'interrupted' })

    const listed = await mecatl(['sessions', 'list', '--workspace', workspace])
    expect(listed.stdout).toContain(sessionId.slice(0, 8))
    expect(listed.stdout).toContain('What is in a.txt?')
    const md = await mecatl(['sessions', 'export', sessionId.slice(0, 8), '--format', 'md'])
    expect(md.stdout).toContain('## You\n\nWhat is in a.txt?')
    expect(md.stdout).toContain('interrupted (the app stopped during this turn)')
    const jsonl = await mecatl(['sessions', 'export', sessionId])
    const types = jsonl.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { type: string }).type)
    expect(types[0]).toBe('session.updated')
    expect(types).toContain('turn.started')
    expect(types).not.toContain('turn.completed')
  }, 60_000)

  it('says what to do for an unknown session or format', async () => {
    const missing = await mecatl(['sessions', 'show', 'no-such-session'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('sessions list shows the ids')
    const bad = await mecatl(['sessions', 'export', 'x', '--format', 'pdf'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--format must be jsonl or md')
  })
})
