import { existsSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import YAML from 'yaml'
import {
  latestToolResults,
  startFakeModelServer,
  type FakeModelServer
} from '../../../testing/fake-model-server'
import { makeTempDir, type CliResult } from '../../../testing/cli-runner'
import { runCliInProcess } from '../../../testing/cli-in-process'
import {
  callThroughCore,
  startCoreHarness,
  type CoreHarness,
  type CoreHarnessOptions
} from '../../../testing/core-harness'
import type { TranscriptItem } from '../../shared/domain'
import { createCore } from '../core'
import { judgeShell } from '../gate/rules'

/** The file tools; others (Todo, Shell, memory) join them in the catalog. */
const FILE_TOOLS = ['Copy', 'Edit', 'Glob', 'Grep', 'ListDir', 'Move', 'Read', 'Remove', 'Write']

// What is the CLI's own (parsing, printing, exit codes) runs the built CLI as a person would, so
// they build first when the sources are newer; what only reaches the core through a command
// runs the core in this process, as that command would.
let dir: string
let workspace: string
let home: string

function mecatl(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return runCliInProcess(args, { home, env })
}

/** A new session's first turn on an in-process core, as `mecatl run` makes it: its transcript. */
async function runTurn(
  options: CoreHarnessOptions,
  prompt: string,
  profile?: 'no-fs'
): Promise<{ h: CoreHarness; transcript: TranscriptItem[] }> {
  const h = await startCoreHarness(options)
  const session = await h.client.call('session.create', { workspace: h.workspace, profile })
  await h.client.call('session.send', { sessionId: session.id, text: prompt })
  await h.core.sessions.idle(session.id)
  const { transcript } = await h.client.call('session.get', { sessionId: session.id })
  return { h, transcript }
}

/** Every reply of the model in a transcript, joined. */
function replies(transcript: TranscriptItem[]): string {
  return transcript.flatMap((i) => (i.kind === 'assistant' ? [i.text] : [])).join('\n')
}

beforeAll(async () => {
  dir = await makeTempDir('cli')
  workspace = path.join(dir, 'project')
  home = path.join(dir, 'home')
  await mkdir(workspace)
  await writeFile(path.join(workspace, 'notes.txt'), 'first\nsecond\n')
  await writeFile(path.join(dir, 'outside.txt'), 'outside\n')
}, 120_000)
afterAll(async () => rm(dir, { recursive: true, force: true }))

describe('mecatl tools', () => {
  it('lists the tools sorted by name with their capabilities, with no provider configured', async () => {
    const result = await mecatl(['tools', '--json'])
    expect(result.code).toBe(0)
    const tools = JSON.parse(result.stdout) as {
      name: string
      readOnly: boolean
      capabilities: { egress: string }
    }[]
    const names = tools.map((t) => t.name)
    expect(names).toEqual([...names].sort())
    expect(names).toEqual(expect.arrayContaining(FILE_TOOLS))
    expect(tools.find((t) => t.name === 'Write')).toMatchObject({
      name: 'Write',
      readOnly: false,
      source: 'builtin',
      capabilities: { privateData: true, untrustedInput: false, egress: 'none', destructive: true }
    })
    // Where Shell stands goes to stderr, so the JSON on stdout stays whole.
    expect(result.stderr).toContain('Shell: confined (bubblewrap), network off')
    expect(tools.find((t) => t.name === 'Shell')?.capabilities.egress).toBe('none')
  })

  it('prints exactly the schemas the model is sent with --schema', async () => {
    const result = await mecatl(['tools', '--schema'])
    const schemas = JSON.parse(result.stdout) as { name: string; inputSchema: { type: string } }[]
    const names = schemas.map((s) => s.name)
    expect(names).toEqual([...names].sort())
    expect(names).toEqual(expect.arrayContaining(FILE_TOOLS))
    expect(schemas.find((s) => s.name === 'Read')?.inputSchema).toMatchObject({
      type: 'object',
      required: ['path']
    })
  })
})

describe('mecatl call', () => {
  it('runs a read and prints {isError, content, external}', async () => {
    const result = await mecatl(['call', 'Read', '{"path":"notes.txt"}', '--workspace', workspace])
    expect(result.code).toBe(0)
    const printed = JSON.parse(result.stdout) as { isError: boolean; content: { text: string }[] }
    expect(printed.isError).toBe(false)
    expect(printed.content[0]?.text).toContain('second')
  })

  it('refuses a path outside the workspace and touches nothing', async () => {
    const read = await mecatl([
      'call',
      'Read',
      '{"path":"../outside.txt"}',
      '--workspace',
      workspace
    ])
    expect(read.code).toBe(1)
    expect(JSON.parse(read.stdout)).toMatchObject({ isError: true, external: false })
    expect(read.stdout).toContain('outside the project folder')
    const write = await callThroughCore(
      'Write',
      { path: '../escaped.txt', content: 'x' },
      { dataDir: home, workspace, core: { modeOverride: 'allow' } }
    )
    expect(write).toMatchObject({ isError: true })
    expect(existsSync(path.join(dir, 'escaped.txt'))).toBe(false)
  })

  it('says which part of the gate refused a call', async () => {
    const result = await callThroughCore(
      'Write',
      { path: 'new.txt', content: 'x' },
      { dataDir: home, workspace, core: { modeOverride: 'read-only' } }
    )
    expect(result).toMatchObject({ isError: true, refusedBy: 'mode' })
    expect(existsSync(path.join(workspace, 'new.txt'))).toBe(false)
  })

  it('exits 2 with a message for usage errors', async () => {
    for (const args of [
      ['nonsense'],
      ['call', 'Read', '{"path":', '--workspace', workspace],
      ['call', 'Read', '{}'],
      ['run', 'hi', '--workspace', workspace, '--mode', 'yolo'],
      ['tools', '--frobnicate']
    ]) {
      const result = await mecatl(args)
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).toMatch(/^mecatl: /)
    }
  })
})

describe('mecatl run', () => {
  let fake: FakeModelServer
  beforeAll(async () => {
    fake = await startFakeModelServer()
  })
  afterAll(async () => fake.close())

  it('runs a headless session and prints one JSON event per line with --json', async () => {
    fake.setScript([
      {
        toolCalls: [{ name: 'Write', input: { path: 'made.txt', content: 'made by the model\n' } }]
      },
      (req) => ({ text: `Wrote it: ${latestToolResults(req)[0]?.content}` })
    ])
    const result = await mecatl([
      'run',
      'make a file',
      '--workspace',
      workspace,
      '--base-url',
      fake.openaiBaseUrl,
      '--model',
      'fake-model',
      '--mode',
      'allow',
      '--json'
    ])
    expect(result.code).toBe(0)
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string })
    const types = events.map((e) => e.type)
    expect(types[0]).toBe('session.updated')
    expect(types.indexOf('turn.started')).toBeLessThan(types.indexOf('message.delta'))
    expect(types).toContain('transcript.item')
    expect(types).toContain('turn.completed')
    expect(types).not.toContain('turn.failed')
    expect(await readFile(path.join(workspace, 'made.txt'), 'utf8')).toBe('made by the model\n')
  })

  it('runs a --profile no-fs session without file or shell tools', async () => {
    const { h, transcript } = await runTurn(
      {
        name: 'cli-no-fs',
        format: 'openai-compatible',
        files: { 'notes.txt': 'first\nsecond\n' },
        script: [
          { toolCalls: [{ name: 'Read', input: { path: 'notes.txt' } }] },
          (req) => ({ text: `Refused: ${latestToolResults(req)[0]?.content}` })
        ]
      },
      'read notes.txt',
      'no-fs'
    )
    expect(transcript.at(-1)).toMatchObject({ kind: 'turn-end', stopReason: 'end_turn' })
    expect(replies(transcript)).toContain('no-fs profile')
    const sent = h.fake.chatRequests()[0]?.tools ?? []
    expect(sent.length).toBeGreaterThan(0)
    expect(sent.filter((name) => [...FILE_TOOLS, 'Shell', 'ShellStatus'].includes(name))).toEqual(
      []
    )
    const bad = await mecatl(['run', 'x', '--workspace', workspace, '--profile', 'wide-open'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--profile must be default or no-fs')
  })

  it('uses the provider of a --config file, and refuses changes when nobody can approve', async () => {
    // The harness's settings file is what --config names; its only provider speaks Anthropic's.
    const { h, transcript } = await runTurn(
      {
        name: 'cli-config',
        format: 'anthropic',
        permissions: 'ask',
        script: [
          { toolCalls: [{ name: 'Write', input: { path: 'asked.txt', content: 'x' } }] },
          (req) => ({ text: latestToolResults(req)[0]?.content ?? '' })
        ]
      },
      'try'
    )
    expect(h.fake.chatRequests().length).toBe(2)
    expect(transcript.at(-1)).toMatchObject({ kind: 'turn-end', stopReason: 'end_turn' })
    expect(replies(transcript)).toContain('nobody is available to approve it')
    expect(existsSync(path.join(h.workspace, 'asked.txt'))).toBe(false)
  })
})

describe('mecatl rules check', () => {
  it('prints the decision for a shell command and the rule that decided it', async () => {
    const config = path.join(dir, 'rules-settings.yaml')
    await writeFile(
      config,
      YAML.stringify({
        permissions: {
          mode: 'ask',
          rules: [
            { tool: 'Shell', command: 'git status', decision: 'allow' },
            { tool: 'Shell', command: 'git push', decision: 'prompt' },
            { tool: 'Shell', command: 'rm', decision: 'forbid' }
          ]
        }
      })
    )
    const check = async (command: string): Promise<unknown> =>
      JSON.parse((await mecatl(['rules', 'check', command, '--json', '--config', config])).stdout)
    expect(await check('git status -s')).toEqual({
      decision: 'allow',
      rule: '`git status -s` matches the rule "git status" (allow)'
    })
    // The rules the command reads from that file, judged in this process as it judges them.
    const core = await createCore({
      dataDir: home,
      configPath: config,
      host: 'cli',
      interactive: false
    })
    const rules = core.settings.snapshot().permissions.rules
    await core.dispose()
    const judged = async (command: string): Promise<string | null> =>
      (await judgeShell(command, rules, 'Shell', { workspace: process.cwd() })).decision
    expect(await judged('git status; rm -rf /')).toBe('forbid')
    expect(await judged('git push origin')).toBe('prompt')
    expect(await check('ls')).toEqual({
      decision: 'prompt',
      rule: 'no rule matches; mode "ask" decides'
    })
    const human = await mecatl(['rules', 'check', 'rm x', '--config', config])
    expect(human.stdout.trim()).toBe('forbid: `rm x` matches the rule "rm" (forbid)')
  })

  it('--yes allows what ask mode would ask about, but not past read-only mode', async () => {
    const allowed = await mecatl([
      'call',
      'Write',
      '{"path":"yes.txt","content":"y"}',
      '--workspace',
      workspace,
      '--yes'
    ])
    expect(JSON.parse(allowed.stdout)).toMatchObject({ isError: false })
    const refused = await mecatl([
      'call',
      'Write',
      '{"path":"no.txt","content":"n"}',
      '--workspace',
      workspace,
      '--yes',
      '--mode',
      'read-only'
    ])
    expect(JSON.parse(refused.stdout)).toMatchObject({ isError: true, refusedBy: 'mode' })
    expect(existsSync(path.join(workspace, 'no.txt'))).toBe(false)
  })
})
