import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { dispatch } from '../../agent/dispatcher'
import { Gate, nobodyToAsk } from '../../gate/gate'
import { openStore, type Store } from '../../store/store'
import { PathJail } from '../../workspace/path-jail'
import { ReadVersions } from '../../workspace/read-versions'
import { Catalog } from '../catalog'
import { outputText, type Tool, type ToolContext, type ToolOutput } from '../tool'
import { memoryTools } from './memory-tools'

let dir: string
let store: Store
let tools: Map<string, Tool>
let alpha: ToolContext
let beta: ToolContext

/** A session's context, whose conversation holds no untrusted input (see memory-provenance). */
function context(folder: string, sessionId: string): ToolContext {
  return {
    sessionId,
    jail: new PathJail(folder),
    reads: new ReadVersions(),
    signal: new AbortController().signal,
    provenance: () => ({ trust: 'trusted', sessionId, folder })
  }
}

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-memtools-')))
  store = openStore(path.join(dir, 'home'))
  tools = new Map(memoryTools(store.memory, { userModel: true }).map((t) => [t.name, t]))
  await mkdir(path.join(dir, 'alpha'))
  await mkdir(path.join(dir, 'beta'))
  alpha = context(path.join(dir, 'alpha'), 'session-a')
  beta = context(path.join(dir, 'beta'), 'session-b')
})
afterEach(async () => {
  store.close()
  await rm(dir, { recursive: true, force: true })
})

/** Calls a tool as the dispatcher does: its input parsed by its schema first. */
async function run(name: string, input: unknown, ctx = alpha): Promise<ToolOutput> {
  const tool = tools.get(name)
  if (!tool) throw new Error(`no tool ${name}`)
  return tool.call(tool.inputSchema.parse(input), ctx)
}

async function text(name: string, input: unknown, ctx = alpha): Promise<string> {
  return outputText((await run(name, input, ctx)).content)
}

/** The version a result shows, as the model would copy it. */
function versionIn(output: string): string {
  const match = /version:? ([A-Za-z0-9_-]{16})/.exec(output)
  if (!match?.[1]) throw new Error(`no version in: ${output}`)
  return match[1]
}

describe('the memory tools', () => {
  it('Remember creates and updates; Recall returns the content and its current version', async () => {
    const created = await text('Remember', { name: 'build', content: 'npm run build' })
    expect(created).toContain('Remembered "build" in the project memory (new)')
    const updated = await text('Remember', { name: 'build', content: 'make all' })
    expect(updated).toContain('it was "npm run build"')
    const recalled = await run('Recall', { name: 'BUILD' })
    expect(recalled.isError).toBe(false)
    const shown = outputText(recalled.content)
    expect(shown).toContain('make all')
    expect(versionIn(shown)).toBe(versionIn(updated))
    expect(versionIn(shown)).not.toBe(versionIn(created))
  })

  it('Recall of an unknown name is an error that points at SearchMemory', async () => {
    const output = await run('Recall', { name: 'nothing' })
    expect(output.isError).toBe(true)
    expect(outputText(output.content)).toContain('SearchMemory')
  })

  it('SearchMemory lists the best match first with versions and the words in bold', async () => {
    await run('Remember', { name: 'lunch', content: 'the team orders pizza on fridays' })
    await run('Remember', { name: 'stack', content: 'typescript, react and sqlite' })
    await run('Remember', { name: 'pizza', content: 'margherita, always with basil' })
    const found = await text('SearchMemory', { query: 'pizza' })
    const names = [...found.matchAll(/^\d+\. "([^"]+)"/gm)].map((m) => m[1])
    expect(names).toEqual(['pizza', 'lunch'])
    expect(found).toContain('orders **pizza** on')
    const none = await run('SearchMemory', { query: 'kubernetes' })
    expect(none.isError).toBe(false)
    expect(outputText(none.content)).toContain('Nothing in the project memory matches')
  })

  it('InspectMemory shows the exact version, which session changed it and when, and history', async () => {
    await run('Remember', { name: 'style', content: 'tabs' })
    const other = context(alpha.jail.root, 'session-c')
    await run('Remember', { name: 'style', content: 'two spaces' }, other)
    const inspected = await text('InspectMemory', { name: 'style' })
    expect(versionIn(inspected)).toBe(versionIn(await text('Recall', { name: 'style' })))
    expect(inspected).toContain('state: live')
    expect(inspected).toMatch(/created: \d{4}-\d\d-\d\dT[\d:]+Z by this session/)
    expect(inspected).toMatch(/last change: remember, \S+Z by session session-c/)
    expect(inspected).toContain('history, newest first (2 of 2 revisions)')
    expect(inspected.indexOf('left "two spaces"')).toBeLessThan(inspected.indexOf('left "tabs"'))
  })

  it('ForgetMemory with the version from Recall tombstones it; UndoMemory brings it back', async () => {
    await run('Remember', { name: 'deploy', content: 'fly deploy --remote-only' })
    const version = versionIn(await text('Recall', { name: 'deploy' }))
    const forgot = await run('ForgetMemory', { name: 'deploy', expected_version: version })
    expect(forgot.isError).toBe(false)
    const recalled = await run('Recall', { name: 'deploy' })
    expect(recalled.isError).toBe(true)
    expect(outputText(recalled.content)).toContain('it was forgotten')
    expect(await text('SearchMemory', { query: 'fly deploy' })).toContain('Nothing')

    const undo = await run('UndoMemory', {
      name: 'deploy',
      expected_version: versionIn(outputText(forgot.content))
    })
    expect(undo.isError).toBe(false)
    expect(outputText(undo.content)).toContain('Undid the latest change (forget)')
    expect(await text('Recall', { name: 'deploy' })).toContain('fly deploy --remote-only')
    expect(await text('SearchMemory', { query: 'remote' })).toContain('"deploy"')
  })

  it('refuses a stale or guessed version with a result that says to Inspect first', async () => {
    const old = versionIn(await text('Remember', { name: 'deploy', content: 'v1' }))
    await run('Remember', { name: 'deploy', content: 'v2' })
    for (const [tool, version] of [
      ['ForgetMemory', old],
      ['UndoMemory', old],
      ['ForgetMemory', 'AAAAAAAAAAAAAAAA'],
      ['UndoMemory', '1']
    ] as const) {
      const refused = await run(tool, { name: 'deploy', expected_version: version })
      expect(refused.isError, `${tool} ${version}`).toBe(true)
      expect(outputText(refused.content)).toContain('Call InspectMemory {"name": "deploy"} first')
    }
    expect(await text('Recall', { name: 'deploy' })).toContain('v2')
    expect(
      store.memory.inspect({ scope: 'project', project: alpha.jail.root }, 'deploy')?.totalRevisions
    ).toBe(2)
  })

  it('refuses a version copied from the other scope', async () => {
    await run('Remember', { name: 'editor', content: 'project note' })
    const userVersion = versionIn(
      await text('RememberUser', { name: 'editor', content: 'the person uses vim' })
    )
    const refused = await run('ForgetMemory', { name: 'editor', expected_version: userVersion })
    expect(refused.isError).toBe(true)
    expect(outputText(refused.content)).toContain('is not a version of "editor"')
    expect(await text('Recall', { name: 'editor' })).toContain('project note')
  })

  it('keeps project memories per folder while the user model is shared by every folder', async () => {
    await run('Remember', { name: 'build', content: 'alpha uses make' })
    await run('RememberUser', { name: 'tone', content: 'the person likes short answers' })
    expect((await run('Recall', { name: 'build' }, beta)).isError).toBe(true)
    expect(await text('SearchMemory', { query: 'make' }, beta)).toContain('Nothing')
    expect(await text('RecallUser', { name: 'tone' }, beta)).toContain('short answers')
    expect(await text('SearchUserModel', { query: 'short answers' }, beta)).toContain('"tone"')
    expect((await run('RecallUser', { name: 'build' })).isError).toBe(true)
    const forgetUser = await text('InspectUserMemory', { name: 'tone' }, beta)
    expect(forgetUser).toContain(
      '(the expected_version ForgetUserMemory and UndoUserMemory need now)'
    )
  })
})

describe('memory tool capabilities', () => {
  it('runs reads, Remember and Undo without asking in ask mode; Forget needs a person', async () => {
    const catalog = new Catalog(memoryTools(store.memory, { userModel: true }))
    await run('Remember', { name: 'x', content: 'y' })
    const version = versionIn(await text('Recall', { name: 'x' }))
    const results = await dispatch(
      [
        { id: '1', name: 'Recall', input: { name: 'x' } },
        { id: '2', name: 'SearchMemory', input: { query: 'y' } },
        { id: '3', name: 'InspectMemory', input: { name: 'x' } },
        { id: '4', name: 'ForgetMemory', input: { name: 'x', expected_version: version } },
        { id: '5', name: 'UndoMemory', input: { name: 'x', expected_version: version } },
        { id: '6', name: 'Remember', input: { name: 'x', content: 'z' } }
      ],
      {
        sessionId: 's',
        catalog,
        gate: new Gate({ mode: 'ask' }, nobodyToAsk),
        context: alpha,
        onUpdate: () => undefined
      }
    )
    expect(results.map((r) => r.refusedBy)).toEqual([null, null, null, 'approver', null, null])
    // Forget was refused; Undo took the first Remember back, and the last one wrote "z".
    expect(await text('Recall', { name: 'x' })).toContain('z')
    const forget = catalog.get('ForgetMemory')
    expect(forget?.capabilities).toMatchObject({ privateData: true, destructive: true })
    expect(catalog.list().every((tool) => tool.capabilities.privateData)).toBe(true)
    expect(catalog.list().every((tool) => tool.capabilities.egress === 'none')).toBe(true)
  })

  it('leaves the user-model tools out when the user model is turned off', () => {
    const names = memoryTools(store.memory, { userModel: false }).map((t) => t.name)
    expect(names.sort()).toEqual([
      'ForgetMemory',
      'InspectMemory',
      'Recall',
      'Remember',
      'SearchMemory',
      'UndoMemory'
    ])
    const all = memoryTools(store.memory, { userModel: true }).map((t) => t.name)
    expect(all).toEqual(
      expect.arrayContaining([
        'RememberUser',
        'RecallUser',
        'SearchUserModel',
        'InspectUserMemory',
        'ForgetUserMemory',
        'UndoUserMemory'
      ])
    )
  })

  it('rejects a content over the limit and a multi-line name before anything is stored', () => {
    const remember = tools.get('Remember')
    expect(remember?.inputSchema.safeParse({ name: 'a\nb', content: 'x' }).success).toBe(false)
    expect(remember?.inputSchema.safeParse({ name: 'a', content: 'x'.repeat(8001) }).success).toBe(
      false
    )
  })
})
