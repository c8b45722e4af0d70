// MCP elicitation under the real core, against the SDK's own server on 127.0.0.1: a server's
// request for input reaches the person through the broker, and only the server hears the answer.
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import YAML from 'yaml'
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js'
import type { Elicitation } from '../../../shared/elicitation'
import type { EventFrame } from '../../../shared/contract/bridge'
import { createCore, type Core } from '../../core'
import { startRemoteMcpServer, type RemoteMcpServer } from '../../../../testing/remote-mcp-server'
import { PathJail } from '../../workspace/path-jail'
import { ReadVersions } from '../../workspace/read-versions'
import { HEADLESS_REFUSAL } from './server-elicitation'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

interface Setup {
  core: Core
  workspace: string
  dataDir: string
  remote: RemoteMcpServer
  events: EventFrame[]
  /** Ends the core (once; the cleanup then skips it). */
  dispose: () => Promise<void>
}

const FORM: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', minLength: 2, maxLength: 20 },
    age: { type: 'integer', title: 'Age', minimum: 0, maximum: 150 },
    tea: { type: 'boolean', title: 'Tea?', default: true },
    colour: {
      type: 'string',
      title: 'Colour',
      enum: ['r', 'g'],
      enumNames: ['Red', 'Green'],
      default: 'g'
    },
    size: {
      type: 'string',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' }
      ]
    },
    days: {
      type: 'array',
      title: 'Days',
      maxItems: 2,
      items: {
        anyOf: [
          { const: 'mon', title: 'Monday' },
          { const: 'tue', title: 'Tuesday' }
        ]
      }
    }
  },
  required: ['name', 'age']
}

async function setup(interactive: boolean): Promise<Setup> {
  const remote = await startRemoteMcpServer({ mode: 'streamable', ask: { form: FORM } })
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-elicit-')))
  const workspace = path.join(dir, 'project')
  await mkdir(workspace)
  const config = path.join(dir, 'settings.yaml')
  await writeFile(config, YAML.stringify({ mcp: [{ name: 'remote', url: remote.url }] }))
  const dataDir = path.join(dir, 'home')
  const core = await createCore({ dataDir, configPath: config, host: 'cli', interactive })
  const events: EventFrame[] = []
  core.hub.subscribe((frame) => events.push(frame))
  let disposed: Promise<void> | null = null
  const dispose = (): Promise<void> => (disposed ??= core.dispose())
  cleanups.push(async () => {
    await dispose()
    await remote.close()
    await rm(dir, { recursive: true, force: true })
  })
  const status = await core.mcp.status(workspace, true)
  expect(status.servers[0]?.state).toBe('ready')
  await remote.streamOpen()
  return { core, workspace, dataDir, remote, events, dispose }
}

/** Starts the fixture's `ask` tool (which elicits mid-call); resolves with its result text. */
async function callAsk(s: Setup, signal = new AbortController().signal): Promise<string> {
  const tool = (await s.core.catalogFor(s.workspace)).get('mcp__remote__ask')
  if (!tool) throw new Error('no ask tool')
  const ctx = { sessionId: 't', jail: new PathJail(s.workspace), reads: new ReadVersions(), signal }
  const output = await tool.call(tool.inputSchema.parse({ message: 'Who are you?' }), ctx)
  return output.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n')
}

/** Waits (bounded) for the next event of that name after `from` events. */
async function nextEvent(s: Setup, name: string, from = 0): Promise<EventFrame> {
  for (let i = 0; i < 400; i++) {
    const found = s.events.slice(from).find((e) => e.event === name)
    if (found) return found
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`no ${name} event arrived`)
}

async function asked(s: Setup, from = 0): Promise<Elicitation> {
  return (await nextEvent(s, 'mcp.elicitation.asked', from)).payload as Elicitation
}

async function answer(s: Setup, input: unknown): Promise<unknown> {
  return s.core.router.handle('mcp.elicitation.answer', input, { caller: 'test' })
}

async function logText(s: Setup): Promise<string> {
  return (await s.core.mcp.log(s.workspace, 'remote')).map((l) => l.text).join('\n')
}

/** Every file under a folder, read as text (the database, its WAL, logs, settings). */
async function everything(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  const files = entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name))
  return (await Promise.all(files.map((f) => readFile(f, 'latin1')))).join('\n')
}

describe('MCP elicitation', () => {
  it('shows the form, and what the person typed reaches that server alone', async () => {
    const s = await setup(true)
    const result = callAsk(s)
    const form = await asked(s)
    expect(form).toMatchObject({
      server: 'remote',
      message: 'Who are you?',
      workspace: s.workspace
    })
    expect(form.fields).toEqual([
      {
        kind: 'text',
        name: 'name',
        label: 'Your name',
        description: null,
        required: true,
        format: null,
        minLength: 2,
        maxLength: 20,
        default: null
      },
      {
        kind: 'number',
        name: 'age',
        label: 'Age',
        description: null,
        required: true,
        integer: true,
        minimum: 0,
        maximum: 150,
        default: null
      },
      {
        kind: 'boolean',
        name: 'tea',
        label: 'Tea?',
        description: null,
        required: false,
        default: true
      },
      {
        kind: 'choice',
        name: 'colour',
        label: 'Colour',
        description: null,
        required: false,
        options: [
          { value: 'r', label: 'Red' },
          { value: 'g', label: 'Green' }
        ],
        default: 'g'
      },
      {
        kind: 'choice',
        name: 'size',
        label: 'size',
        description: null,
        required: false,
        options: [
          { value: 's', label: 'Small' },
          { value: 'l', label: 'Large' }
        ],
        default: null
      },
      {
        kind: 'multi',
        name: 'days',
        label: 'Days',
        description: null,
        required: false,
        options: [
          { value: 'mon', label: 'Monday' },
          { value: 'tue', label: 'Tuesday' }
        ],
        minItems: null,
        maxItems: 2,
        default: null
      }
    ])
    // A reloaded window finds it waiting.
    const pending = await s.core.router.handle(
      'mcp.elicitation.pending',
      { workspace: s.workspace },
      { caller: 'test' }
    )
    expect(pending).toMatchObject({ ok: true, result: { elicitations: [{ server: 'remote' }] } })

    const secret = 'Zephyrine-7731'
    const content = { name: secret, age: 41, tea: false, colour: 'r', days: ['tue'] }
    expect(
      await answer(s, { elicitationId: form.elicitationId, action: 'accept', content })
    ).toEqual({ ok: true, result: { ok: true } })
    expect(await result).toBe(`server got: ${JSON.stringify({ action: 'accept', content })}`)
    expect(s.events.map((e) => e.event)).toContain('mcp.elicitation.resolved')
    // The resolved event, the log and every file Mecatl keeps carry no value the person typed.
    const resolved = s.events.find((e) => e.event === 'mcp.elicitation.resolved')
    expect(JSON.stringify(resolved)).not.toContain(secret)
    const log = await logText(s)
    expect(log).toContain('asked the person: Who are you?')
    expect(log).toContain('the person answered (name, age, tea, colour, days)')
    expect(log).not.toContain(secret)
    await s.dispose()
    expect(await everything(s.dataDir)).not.toContain(secret)
  })

  it('refuses content that breaks the form, naming the field, and keeps waiting', async () => {
    const s = await setup(true)
    const result = callAsk(s)
    const { elicitationId } = await asked(s)
    const refused = async (content: unknown, field: RegExp): Promise<void> => {
      const response = (await answer(s, { elicitationId, action: 'accept', content })) as {
        ok: boolean
        error?: { code: string; message: string }
      }
      expect(response.ok).toBe(false)
      expect(response.error?.code).toBe('invalid_input')
      expect(response.error?.message).toMatch(field)
    }
    await refused({ age: 3 }, /“Your name” is required/)
    await refused({ name: 'A', age: 3 }, /“Your name” must be at least 2 characters/)
    await refused({ name: 'Ada', age: '3' }, /“Age” must be a number/)
    await refused({ name: 'Ada', age: 3.5 }, /“Age” must be a whole number/)
    await refused({ name: 'Ada', age: 151 }, /“Age” must be at most 150/)
    await refused({ name: 'Ada', age: 3, colour: 'blue' }, /“Colour” must be one of the choices/)
    await refused({ name: 'Ada', age: 3, days: ['mon', 'mon'] }, /“Days” lists a choice twice/)
    await refused({ name: 'Ada', age: 3, tea: 'yes' }, /“Tea\?” must be yes or no/)
    await refused({ name: 'Ada', age: 3, password: 'x' }, /no field "password"/)
    expect(s.core.mcp.elicitation?.pending(s.workspace)).toHaveLength(1)
    // A key smuggled as JSON's "__proto__" carries nothing to the server.
    const sly = JSON.parse('{"name":"Ada","age":3,"__proto__":{"password":"x"}}') as unknown
    await answer(s, { elicitationId, action: 'accept', content: sly })
    expect(await result).toBe(
      `server got: ${JSON.stringify({ action: 'accept', content: { name: 'Ada', age: 3 } })}`
    )
  })

  it('tells the server when the person declines or cancels, with no content', async () => {
    const s = await setup(true)
    for (const action of ['decline', 'cancel'] as const) {
      const from = s.events.length
      const result = callAsk(s)
      const { elicitationId } = await asked(s, from)
      await answer(s, { elicitationId, action, content: { name: 'leaked?' } })
      expect(await result).toBe(`server got: ${JSON.stringify({ action })}`)
    }
    const log = await logText(s)
    expect(log).toContain('the person declined')
    expect(log).toContain('cancelled')
    expect(log).not.toContain('leaked?')
    // A second answer finds nothing waiting.
    expect(await answer(s, { elicitationId: 'gone', action: 'cancel' })).toEqual({
      ok: true,
      result: { ok: false }
    })
  })

  it('closes the dialog when the server cancels its request, or the server stops', async () => {
    const s = await setup(true)
    const controller = new AbortController()
    const elicited = s.remote.elicit('Pick one', FORM, { signal: controller.signal })
    const first = await asked(s)
    controller.abort('changed my mind')
    await expect(elicited).rejects.toThrow()
    const resolved = await nextEvent(s, 'mcp.elicitation.resolved')
    expect(resolved.payload).toMatchObject({ elicitationId: first.elicitationId })
    expect(s.core.mcp.elicitation?.pending(s.workspace)).toEqual([])

    const from = s.events.length
    const second = s.remote.elicit('Still there?', FORM).catch((error: unknown) => error)
    const { elicitationId } = await asked(s, from)
    await s.core.mcp.restart(s.workspace, 'remote')
    expect((await nextEvent(s, 'mcp.elicitation.resolved', from)).payload).toMatchObject({
      elicitationId
    })
    expect(s.core.mcp.elicitation?.pending(s.workspace)).toEqual([])
    // The server's side of it ends with the fixture (a streamable session outlives its client).
    void second
    expect(await logText(s)).toMatch(/asked the person: Pick one[\s\S]*cancelled/)
  })

  it('is refused headless, and the server is told why in plain words', async () => {
    const s = await setup(false)
    await expect(s.remote.elicit('Anyone there?', FORM)).rejects.toThrow(HEADLESS_REFUSAL)
    expect(await callAsk(s)).toContain(HEADLESS_REFUSAL)
    expect(s.events.some((e) => e.event.startsWith('mcp.elicitation'))).toBe(false)
    expect(await logText(s)).toContain('refused: there is no window to ask in (headless)')
  })
})
