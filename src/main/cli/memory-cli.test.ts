import { mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir, type CliResult } from '../../../testing/cli-runner'
import { runCliInProcess } from '../../../testing/cli-in-process'
import { callThroughCore } from '../../../testing/core-harness'

// Each command has a core of its own, so what one remembers the next can only know through the
// database in MECATL_HOME: `memory search`, `tools` and the usage errors run the built CLI as a
// person would; the tool calls are made as `mecatl call` makes them, in this process.
let dir: string
let home: string
let alpha: string
let beta: string

function mecatl(args: string[]): Promise<CliResult> {
  return runCliInProcess(args, { home })
}

/** A tool call as `call` makes it (`--yes` when told), its text and whether it was an error. */
async function callTool(
  tool: string,
  input: unknown,
  workspace: string,
  yes?: '--yes'
): Promise<{ isError: boolean; text: string; refusedBy?: string }> {
  const { isError, text, refusedBy } = await callThroughCore(tool, input, {
    dataDir: home,
    workspace,
    core: { autoApprove: yes === '--yes' }
  })
  return { isError, text, refusedBy }
}

function versionIn(text: string): string {
  const version = /version:? ([\w-]{16})/.exec(text)?.[1]
  if (!version) throw new Error(`no version in: ${text}`)
  return version
}

beforeAll(async () => {
  dir = await makeTempDir('memory-cli')
  home = path.join(dir, 'home')
  alpha = path.join(dir, 'alpha')
  beta = path.join(dir, 'beta')
  await mkdir(alpha)
  await mkdir(beta)
}, 120_000)
afterAll(async () => rm(dir, { recursive: true, force: true }))

describe('memory from the command line', () => {
  it('keeps what one call remembers for the next: recall, search, forget, undo', async () => {
    const remembered = await callTool(
      'Remember',
      { name: 'deploy', content: 'Deploy with fly deploy --remote-only' },
      alpha,
      '--yes'
    )
    expect(remembered.isError).toBe(false)
    const recalled = await callTool('Recall', { name: 'deploy' }, alpha)
    expect(recalled.text).toContain('fly deploy --remote-only')
    const version = versionIn(recalled.text)
    expect(version).toBe(versionIn(remembered.text))

    const search = await mecatl(['memory', 'search', 'remote deploy', '--workspace', alpha])
    expect(search.code).toBe(0)
    expect(search.stdout).toContain(`deploy  (version ${version}`)
    expect(search.stdout).toContain('**remote**')

    const forgot = await callTool(
      'ForgetMemory',
      { name: 'deploy', expected_version: version },
      alpha,
      '--yes'
    )
    expect(forgot.isError).toBe(false)
    const gone = await mecatl(['memory', 'search', 'remote', '--workspace', alpha, '--json'])
    expect(JSON.parse(gone.stdout)).toEqual([])

    // The version Recall gave is stale now: refused, and told to Inspect first.
    const stale = await callTool(
      'UndoMemory',
      { name: 'deploy', expected_version: version },
      alpha,
      '--yes'
    )
    expect(stale).toMatchObject({ isError: true })
    expect(stale.text).toContain('Call InspectMemory')
    const undone = await callTool(
      'UndoMemory',
      { name: 'deploy', expected_version: versionIn(forgot.text) },
      alpha,
      '--yes'
    )
    expect(undone.isError).toBe(false)
    const back = await mecatl(['memory', 'search', 'remote', '--workspace', alpha, '--json'])
    expect(JSON.parse(back.stdout)).toMatchObject([
      { name: 'deploy', content: 'Deploy with fly deploy --remote-only', lastKind: 'undo' }
    ])
  })

  it('shares the user model across projects and keeps project memory to its folder', async () => {
    await callTool(
      'Remember',
      { name: 'tests', content: 'alpha tests run with vitest' },
      alpha,
      '--yes'
    )
    await callTool(
      'RememberUser',
      { name: 'editor', content: 'the person edits in vim' },
      alpha,
      '--yes'
    )
    const fromBeta = await mecatl(['memory', 'search', 'vitest', '--workspace', beta])
    expect(fromBeta.stdout).toContain('Nothing in the project memory of')
    const user = await mecatl(['memory', 'search', 'vim', '--user', '--workspace', beta])
    expect(user.stdout).toContain('editor  (version')
    expect((await callTool('RecallUser', { name: 'editor' }, beta)).text).toContain('vim')
  })

  it('remembers without asking in ask mode, but asks before forgetting, so headless it is refused', async () => {
    const kept = await callTool('Remember', { name: 'habit', content: 'kept' }, alpha)
    expect(kept.isError).toBe(false)
    const version = versionIn(kept.text)
    const refused = await callTool(
      'ForgetMemory',
      { name: 'habit', expected_version: version },
      alpha
    )
    expect(refused).toMatchObject({ isError: true, refusedBy: 'approver' })
    expect(refused.text).toContain('ForgetMemory asks a person by default')
    expect((await callTool('Recall', { name: 'habit' }, alpha)).text).toContain('kept')
  })

  it('leaves the user-model tools out with --no-user-model or user_model: {enabled: false}', async () => {
    const names = async (...flags: string[]): Promise<string[]> =>
      (
        JSON.parse((await mecatl(['tools', '--json', '--workspace', alpha, ...flags])).stdout) as {
          name: string
        }[]
      ).map((t) => t.name)
    expect(await names()).toEqual(
      expect.arrayContaining(['Remember', 'RememberUser', 'SearchUserModel'])
    )
    const flagged = await names('--no-user-model')
    expect(flagged).toContain('SearchMemory')
    expect(flagged.filter((n) => /User/.test(n))).toEqual([])
    const config = path.join(dir, 'no-user-model.yaml')
    await writeFile(config, 'user_model: { enabled: false }\n')
    expect((await names('--config', config)).filter((n) => /User/.test(n))).toEqual([])
  })

  it('exits 2 with the usage for a memory command it does not know', async () => {
    const result = await mecatl(['memory', 'list'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("memory search 'QUERY'")
  })
})
