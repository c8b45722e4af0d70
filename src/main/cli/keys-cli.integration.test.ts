import { spawn } from 'node:child_process'
import { chmod, mkdir, readFile, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import * as pty from 'node-pty'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeModelServer, type FakeModelServer } from '../../../testing/fake-model-server'
import {
  cliPath,
  ensureCliBuilt,
  makeTempDir,
  writeFakeSettings,
  type CliResult
} from '../../../testing/cli-runner'
import { runCliInProcess } from '../../../testing/cli-in-process'

// `mecatl keys` puts a provider key in the data folder's 0600 key file, read only from stdin, and
// `run` then uses it for the provider whose api_key_env names it, with that variable unset.
const KEY = 'sk-stored-Zq81xK'
let dir: string
let workspace: string
let config: string
let fake: FakeModelServer

beforeAll(async () => {
  ensureCliBuilt()
  dir = await makeTempDir('keys-cli')
  workspace = path.join(dir, 'project')
  await mkdir(workspace)
  // The fake model refuses any other key with a 401, as the real APIs do.
  fake = await startFakeModelServer({ requireKey: KEY })
  // Its one provider reads FAKE_KEY, which no command here has in its environment.
  config = await writeFakeSettings(path.join(dir, 'settings.yaml'), fake)
}, 120_000)

afterAll(async () => {
  await fake?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** `mecatl ARGS` with `input` piped to its stdin and closed, MECATL_HOME at `home`. */
function withStdin(args: string[], home: string, input: string): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      env: { PATH: process.env.PATH, MECATL_HOME: home }
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr }))
    child.stdin.end(input)
  })
}

function freshHome(name: string): string {
  // Not created: `keys set` makes it, as a first run would.
  return path.join(dir, name, 'home')
}

function expectNoKey(...results: CliResult[]): void {
  for (const r of results) expect(`${r.stdout}${r.stderr}`).not.toContain(KEY)
}

describe('mecatl keys', () => {
  it('set from a pipe, list, run with the stored key and no variable, remove', async () => {
    const home = freshHome('round')
    const keyFile = path.join(home, 'provider-keys.json')
    const set = await withStdin(['keys', 'set', 'FAKE_KEY'], home, `${KEY}\n`)
    expect(set.stderr).toBe('')
    expect(set.code).toBe(0)
    expect(set.stdout.trim()).toBe(`Stored FAKE_KEY in ${keyFile} (readable only by you).`)
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600)
    expect((await stat(home)).mode & 0o777).toBe(0o700)
    // Only the final line break was dropped.
    expect(JSON.parse(await readFile(keyFile, 'utf8'))).toEqual({ FAKE_KEY: KEY })

    const list = await runCliInProcess(['keys', 'list'], { home })
    expect(list.code).toBe(0)
    expect(list.stdout).toBe(`${keyFile} (mode 0600, readable only by you)\nFAKE_KEY\n`)
    const json = await runCliInProcess(['keys', 'list', '--json'], { home })
    expect(JSON.parse(json.stdout)).toEqual({ file: keyFile, mode: '0600', names: ['FAKE_KEY'] })

    fake.setScript([{ text: 'Answered with the stored key.' }])
    const run = await runCliInProcess(
      ['run', 'hello', '--workspace', workspace, '--config', config],
      {
        home,
        timeoutMs: 60_000
      }
    )
    expect(run.stderr).not.toMatch(/error|not set/i)
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Answered with the stored key.')

    const removed = await runCliInProcess(['keys', 'remove', 'FAKE_KEY'], { home })
    expect(removed.code).toBe(0)
    expect(removed.stdout.trim()).toBe(`Removed FAKE_KEY from ${keyFile}.`)
    const again = await runCliInProcess(['keys', 'remove', 'FAKE_KEY'], { home })
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/no key named FAKE_KEY is stored/)
    const empty = await runCliInProcess(['keys', 'list'], { home })
    expect(empty.stdout).toBe(`${keyFile} (mode 0600, readable only by you)\nNo keys stored.\n`)
    const unkeyed = await runCliInProcess(
      ['run', 'hello', '--workspace', workspace, '--config', config],
      {
        home,
        timeoutMs: 60_000
      }
    )
    expect(unkeyed.code).toBe(1)
    expect(unkeyed.stderr).toMatch(/FAKE_KEY, which is not set.*mecatl keys set FAKE_KEY/)
    expectNoKey(set, list, json, run, removed, again, empty, unkeyed)
  }, 120_000)

  it('run --base-url sends the OPENAI_API_KEY stored, with the variable unset', async () => {
    const home = freshHome('flags')
    expect((await withStdin(['keys', 'set', 'OPENAI_API_KEY'], home, KEY)).code).toBe(0)
    fake.setScript([{ text: 'Answered through the flags.' }])
    const flags = ['--base-url', fake.openaiBaseUrl, '--model', 'fake-model']
    const run = await runCliInProcess(['run', 'hello', '--workspace', workspace, ...flags], {
      home,
      timeoutMs: 60_000
    })
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Answered through the flags.')
    expectNoKey(run)
  }, 120_000)

  it('refuses a name that is not an environment variable name with exit 2, storing nothing', async () => {
    const home = freshHome('names')
    for (const name of ['1KEY', 'my-key', 'A B', '', KEY.replace(/-/g, '.'), 'X\u001b[2J']) {
      const result = await withStdin(['keys', 'set', name], home, `${KEY}\n`)
      expect(result.code).toBe(2)
      expect(result.stderr).toMatch(/letters, digits and _, not starting with a digit/)
      // A name that may have been the key is not repeated back.
      expect(result.stderr).not.toContain(name === '' ? '\u0000' : name)
      expectNoKey(result)
    }
    const removed = await runCliInProcess(['keys', 'remove', 'my-key'], { home })
    expect(removed.code).toBe(2)
    await expect(stat(path.join(home, 'provider-keys.json'))).rejects.toThrow(/ENOENT/)
  }, 120_000)

  it('refuses what is not one key on stdin: nothing, several lines, a control character', async () => {
    const home = freshHome('values')
    for (const input of ['', '\n', `${KEY}\nsecond line\n`, `${KEY}\u0007`]) {
      const result = await withStdin(['keys', 'set', 'FAKE_KEY'], home, input)
      expect(result.code, result.stderr).toBe(2)
      expect(result.stderr).not.toMatch(/Usage:/)
      expect(result.stderr).toMatch(/nothing was stored/)
      expectNoKey(result)
    }
    await expect(stat(path.join(home, 'provider-keys.json'))).rejects.toThrow(/ENOENT/)
  }, 120_000)

  it('refuses a key file others can read (0644), saying chmod 600, and changes nothing', async () => {
    const home = freshHome('wide')
    const keyFile = path.join(home, 'provider-keys.json')
    const first = await withStdin(['keys', 'set', 'FAKE_KEY'], home, KEY)
    expect(first.code, first.stderr).toBe(0)
    await chmod(keyFile, 0o644)
    const before = await readFile(keyFile, 'utf8')
    const set = await withStdin(['keys', 'set', 'OTHER_KEY'], home, 'sk-other\n')
    const list = await runCliInProcess(['keys', 'list'], { home })
    const run = await runCliInProcess(
      ['run', 'hello', '--workspace', workspace, '--config', config],
      {
        home,
        timeoutMs: 60_000
      }
    )
    for (const result of [set, list, run]) {
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(`can be read by others (mode 0644)`)
      expect(result.stderr).toContain(`chmod 600 ${keyFile}`)
    }
    expect(await readFile(keyFile, 'utf8')).toBe(before)
    expect((await stat(keyFile)).mode & 0o777).toBe(0o644)
    expectNoKey(set, list, run)
  }, 120_000)

  it('keeps both keys when two processes store at once', async () => {
    for (let round = 0; round < 3; round++) {
      const home = freshHome(`race-${round}`)
      const names = ['FIRST_KEY', 'SECOND_KEY', 'THIRD_KEY', 'FOURTH_KEY']
      const results = await Promise.all(
        names.map((name) => withStdin(['keys', 'set', name], home, `sk-${name}\n`))
      )
      for (const result of results) expect(result.code, result.stderr).toBe(0)
      const stored = JSON.parse(
        await readFile(path.join(home, 'provider-keys.json'), 'utf8')
      ) as Record<string, string>
      expect(stored).toEqual(Object.fromEntries(names.map((name) => [name, `sk-${name}`])))
    }
  }, 180_000)

  it('at a terminal, asks for the key without echoing what is typed', async () => {
    const home = freshHome('tty')
    const term = pty.spawn(process.execPath, [cliPath, 'keys', 'set', 'FAKE_KEY'], {
      env: { PATH: process.env.PATH ?? '', MECATL_HOME: home },
      cols: 200,
      rows: 24
    })
    let screen = ''
    const exited = new Promise<number>((resolve) =>
      term.onExit(({ exitCode }) => resolve(exitCode))
    )
    const prompted = new Promise<void>((resolve) =>
      term.onData((data) => {
        screen += data
        if (screen.includes('not shown as you type')) resolve()
      })
    )
    await prompted
    term.write(`${KEY}x\u007f\r`)
    expect(await exited).toBe(0)
    expect(screen).toContain('Stored FAKE_KEY in')
    expect(screen).not.toContain(KEY)
    const stored = JSON.parse(await readFile(path.join(home, 'provider-keys.json'), 'utf8'))
    expect(stored).toEqual({ FAKE_KEY: KEY })
  }, 120_000)
})
