// What the model writes and what tools read reaches the CLI's output; escape sequences in it must
// be shown, never obeyed: at a terminal (a pty), into a pipe, in plain text and in JSON.
import { mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import * as pty from 'node-pty'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeModelServer, type FakeModelServer } from '../../../testing/fake-model-server'
import {
  cliPath,
  ensureCliBuilt,
  makeTempDir,
  runCli,
  writeFakeSettings,
  type CliResult
} from '../../../testing/cli-runner'
import { runCliInProcess } from '../../../testing/cli-in-process'

// OSC 52 (set the clipboard), OSC 0 (the window title), clear screen and home, an 8-bit CSI,
// a carriage return that would hide "rm -rf ~", a right-to-left override.
const HOSTILE =
  'Hello \u001b]52;c;ZXZpbA==\u0007\u001b]0;pwned\u001b\\\u001b[2J\u001b[H\u009b31m rm -rf ~\rls \u202eevil'
const SHOWN =
  'Hello \\x1b]52;c;ZXZpbA==\\x07\\x1b]0;pwned\\x1b\\\\x1b[2J\\x1b[H\\u009b31m rm -rf ~\\x0dls \\u202eevil'
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

let dir: string
let home: string
let workspace: string
let config: string
let fake: FakeModelServer

beforeAll(async () => {
  ensureCliBuilt()
  dir = await makeTempDir('terminal-output')
  home = path.join(dir, 'home')
  workspace = path.join(dir, 'project')
  await mkdir(home)
  await mkdir(workspace)
  await writeFile(path.join(workspace, 'evil.txt'), `${HOSTILE}\n`)
  fake = await startFakeModelServer({ requireKey: 'sk-test' })
  config = await writeFakeSettings(path.join(dir, 'settings.yaml'), fake)
}, 180_000)
afterAll(async () => {
  await fake?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

const runArgs = (...extra: string[]): string[] => [
  'run',
  'Read evil.txt',
  '--workspace',
  workspace,
  '--config',
  config,
  '--trust-project',
  ...extra
]

/** The model reads the file, then answers with the same hostile text. */
function script(): void {
  fake.setScript([
    { toolCalls: [{ name: 'Read', input: { path: 'evil.txt' } }] },
    { text: HOSTILE }
  ])
}

function inProcess(args: string[]): Promise<CliResult> {
  return runCliInProcess(args, { home, cwd: workspace, env: { FAKE_KEY: 'sk-test' } })
}

describe('run prints the model’s escape sequences visibly', () => {
  it('plain: the reply shows each control character as text', async () => {
    script()
    const result = await inProcess(runArgs())
    expect(result.code).toBe(0)
    expect(result.stdout.trim()).toBe(SHOWN)
    expect(result.stderr).not.toMatch(RAW)
  })

  it('--json: every line parses to exactly what was sent, and none holds a raw control', async () => {
    script()
    const result = await inProcess(runArgs('--json'))
    expect(result.code).toBe(0)
    expect(result.stdout).not.toMatch(RAW)
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; delta?: string })
    const reply = events
      .filter((e) => e.type === 'message.delta')
      .map((e) => e.delta)
      .join('')
    expect(reply).toBe(HOSTILE)
    // The Read result carried the file's escapes too: escaped in the output, intact when parsed.
    expect(result.stdout).toContain('\\u009b31m')
  })

  it('into a pipe, from the built CLI', async () => {
    script()
    const result = await runCli(runArgs(), { home, env: { FAKE_KEY: 'sk-test' } })
    expect(result.code).toBe(0)
    expect(result.stdout.trim()).toBe(SHOWN)
    expect(result.stderr).not.toMatch(RAW)
  }, 60_000)

  it('at a terminal, from the built CLI: the terminal receives no escape at all', async () => {
    script()
    const term = pty.spawn(process.execPath, [cliPath, ...runArgs()], {
      env: { PATH: process.env.PATH ?? '', MECATL_HOME: home, FAKE_KEY: 'sk-test' },
      cols: 200,
      rows: 24
    })
    let screen = ''
    term.onData((data) => (screen += data))
    const code = await new Promise<number>((resolve) =>
      term.onExit(({ exitCode }) => resolve(exitCode))
    )
    expect(code).toBe(0)
    // The terminal turns each line feed into CR LF; nothing else may be a control character.
    const received = screen.replaceAll('\r\n', '\n')
    expect(received).not.toMatch(RAW)
    expect(received).toContain(SHOWN)
  }, 60_000)
})

describe('call prints a tool’s result as JSON a terminal cannot act on', () => {
  it('the file’s escapes are escaped in the output and exact once parsed', async () => {
    const result = await inProcess([
      'call',
      'Read',
      '{"path":"evil.txt"}',
      '--workspace',
      workspace,
      '--config',
      config
    ])
    expect(result.code).toBe(0)
    expect(result.stdout).not.toMatch(RAW)
    const printed = JSON.parse(result.stdout) as { content: { text: string }[] }
    expect(printed.content[0]?.text).toContain(HOSTILE)
  })
})
