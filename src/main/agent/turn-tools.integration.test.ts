import { describe, expect, it } from 'vitest'
import { latestToolResults, type Step } from '../../../testing/fake-model-server'
import type { SessionProfile } from '../../shared/session-profile'
import { everythingServer } from '../../../testing/mcp-test-servers'
import { startCoreHarness, type CoreHarness as Harness } from '../../../testing/core-harness'
import { fsTools } from '../tools/fs'
import { shellTools } from '../tools/shell'

function harness(script: Step[], settings: Record<string, unknown> = {}): Promise<Harness> {
  return startCoreHarness({ name: 'tools', script, settings, files: { 'a.txt': 'alpha\n' } })
}

async function turn(
  h: Harness,
  text: string,
  profile?: SessionProfile,
  sessionId?: string
): Promise<string> {
  const id =
    sessionId ?? (await h.client.call('session.create', { workspace: h.workspace, profile })).id
  await h.client.call('session.send', { sessionId: id, text })
  await h.core.sessions.idle(id)
  return id
}

const sorted = (names: string[]): string[] => [...names].sort()

describe('ToolSearch and progressive disclosure', () => {
  it('keeps a lazy MCP server hidden until ToolSearch finds its tool, then sends it sorted', async () => {
    const echo = 'mcp__everything__echo'
    const h = await harness(
      [
        // A guessed name is refused, and the model is told how to find the tool.
        { toolCalls: [{ name: echo, input: { message: 'guess' } }] },
        { toolCalls: [{ name: 'ToolSearch', input: { query: 'echo' } }] },
        { toolCalls: [{ name: echo, input: { message: 'hello' } }] },
        (req) => ({ text: `Got: ${latestToolResults(req)[0]?.content}` }),
        { text: 'Second turn.' }
      ],
      { mcp: [everythingServer('everything', { disclose: 'lazy' })] }
    )
    const sessionId = await turn(h, 'Echo hello')
    await turn(h, 'Again', undefined, sessionId)

    const requests = h.fake.chatRequests()
    expect(requests).toHaveLength(5)
    const [first, , third, fourth, fifth] = requests.map((r) => r.tools)
    expect(first).toContain('ToolSearch')
    expect(first?.some((name) => name.startsWith('mcp__everything__'))).toBe(false)
    expect(first).toEqual(sorted(first ?? []))
    const guessed = latestToolResults(requests[1]!)[0]
    expect(guessed?.content).toMatch(/not loaded yet: call ToolSearch/)
    // Found: sent from the next request on, in its sorted place, and nothing else changed.
    expect(third).toContain(echo)
    expect(third).toEqual(sorted(third ?? []))
    expect(third?.filter((name) => name !== echo)).toEqual(first)
    expect(latestToolResults(requests[2]!)[0]?.content).toContain(echo)
    expect(latestToolResults(requests[3]!)[0]?.content).toContain('Echo: hello')
    // Stable between turns: the next turn is sent exactly the same list.
    expect(fourth).toEqual(third)
    expect(fifth).toEqual(third)
  })
})

describe('the no-fs profile', () => {
  it('sends no file, shell or delegation tools and refuses a Read by name', async () => {
    const h = await harness([
      { toolCalls: [{ name: 'Read', input: { path: 'a.txt' } }] },
      (req) => ({ text: `Result: ${latestToolResults(req)[0]?.content}` })
    ])
    const sessionId = await turn(h, 'Read a.txt', 'no-fs')

    const [request] = h.fake.chatRequests()
    const tools = request?.tools ?? []
    const folderTools = [...fsTools(), ...shellTools(h.core.jobs)].map((tool) => tool.name)
    expect(tools.filter((name) => folderTools.includes(name))).toEqual([])
    expect(tools).toEqual(expect.arrayContaining(['DiscoverModels', 'Todo']))
    expect(tools).toEqual(sorted(tools))
    const { session, transcript } = await h.client.call('session.get', { sessionId })
    expect(session.profile).toBe('no-fs')
    const calls = transcript.flatMap((i) => (i.kind === 'tool' ? [i.call] : []))
    expect(calls.map((c) => [c.name, c.state, c.refusedBy])).toEqual([
      ['Read', 'denied', 'catalog']
    ])
    expect(h.fake.lastToolResults()[0]?.content).toMatch(/no-fs profile/)

    // Loaded back after a restart, the session is still file-less.
    await h.restart()
    const reloaded = await h.client.call('session.get', { sessionId })
    expect(reloaded.session.profile).toBe('no-fs')
  })

  it('a default session still gets the file tools', async () => {
    const h = await harness([{ text: 'ok' }])
    await turn(h, 'hi')
    const tools = h.fake.chatRequests()[0]?.tools ?? []
    expect(tools).toEqual(expect.arrayContaining(['Read', 'Write', 'Shell', 'DiscoverModels']))
  })

  it('has every file and shell tool say it needs a folder, so one added to them is kept out', async () => {
    const h = await harness([])
    const family = [...fsTools(), ...shellTools(h.core.jobs)]
    expect(family.filter((tool) => !tool.needsFolder).map((tool) => tool.name)).toEqual([])
  })
})
