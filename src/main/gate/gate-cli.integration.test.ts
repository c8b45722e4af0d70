import { existsSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../testing/cli-runner'
import { runCliInProcess } from '../../../testing/cli-in-process'
import {
  callThroughCore,
  type CallResult,
  type CoreCallOptions
} from '../../../testing/core-harness'

// The gate as `mecatl call` uses it, a real workspace, a real shell: calls in this process, as
// the command makes them, and `rules check` through the built CLI, whose command decides it.
let dir: string
let workspace: string
let home: string
const originalConfig = '[core]\n\tbare = false\n'

/** `--mode allow --yes` */
const allowYes = { modeOverride: 'allow', autoApprove: true } as const

/** `mecatl call TOOL INPUT --workspace W` with the flags given, in this process. */
function call(
  tool: string,
  input: unknown,
  flags: CoreCallOptions['core'] = {}
): Promise<CallResult> {
  return callThroughCore(tool, input, { dataDir: home, workspace, core: flags })
}

beforeAll(async () => {
  dir = await makeTempDir('gate-cli')
  workspace = path.join(dir, 'project')
  home = path.join(dir, 'home')
  await mkdir(path.join(workspace, '.git'), { recursive: true })
  await writeFile(path.join(workspace, '.git', 'config'), originalConfig)
}, 120_000)
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('mecatl call through the gate', () => {
  it('runs a redirection into the project folder in allow mode', async () => {
    const result = await call('Shell', { command: 'echo hi > out.txt' }, allowYes)
    expect(result, result.text).toMatchObject({ isError: false })
    expect(await readFile(path.join(workspace, 'out.txt'), 'utf8')).toBe('hi\n')
  })

  it('asks in ask mode, where --yes answers for an ordinary file', async () => {
    const refused = await call('Shell', { command: 'echo no > asked.txt' })
    expect(refused).toMatchObject({ isError: true, refusedBy: 'approver' })
    expect(existsSync(path.join(workspace, 'asked.txt'))).toBe(false)
    const answered = await call('Shell', { command: 'echo yes > asked.txt' }, { autoApprove: true })
    expect(answered).toMatchObject({ isError: false })
    expect(await readFile(path.join(workspace, 'asked.txt'), 'utf8')).toBe('yes\n')
  })

  it('refuses a redirection into .git or outside the folder headless, even in allow mode with --yes', async () => {
    for (const command of ['echo owned >> .git/config', 'echo out > ../outside.txt']) {
      const result = await call('Shell', { command }, allowYes)
      expect(result.refusedBy, command).toBe('approver')
      expect(result.text).toContain('nobody is available to approve it')
    }
    expect(await readFile(path.join(workspace, '.git', 'config'), 'utf8')).toBe(originalConfig)
    expect(existsSync(path.join(dir, 'outside.txt'))).toBe(false)
  })

  it('refuses a file tool writing into .git headless, saying why', async () => {
    const result = await call(
      'Write',
      { path: '.git/config', content: '[core]\n\tfsmonitor = touch owned\n' },
      allowYes
    )
    expect(result.refusedBy).toBe('approver')
    expect(result.text).toContain("inside the repository's .git folder")
    expect(await readFile(path.join(workspace, '.git', 'config'), 'utf8')).toBe(originalConfig)
  })
})

describe('mecatl rules check', () => {
  it('judges where a redirection writes against the folder, as call does', async () => {
    const check = async (command: string): Promise<{ decision: string; rule: string }> => {
      const result = await runCliInProcess(
        ['rules', 'check', command, '--workspace', workspace, '--mode', 'allow', '--json'],
        { home }
      )
      return JSON.parse(result.stdout) as { decision: string; rule: string }
    }
    expect((await check('echo hi > out.txt')).decision).toBe('allow')
    const git = await check('echo owned >> .git/config')
    expect(git.decision).toBe('prompt')
    expect(git.rule).toMatch(/\.git/)
  })
})
