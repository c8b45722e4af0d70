import { readFile, writeFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import YAML from 'yaml'
import { startCoreHarness, type CoreHarness } from '../../../testing/core-harness'
import {
  latestToolResults,
  type NormalizedRequest,
  type Step
} from '../../../testing/fake-model-server'
import { SUMMARY_HEADER, SUMMARY_SYSTEM } from './compaction'

// Settings apply from the next turn of every open session, with no restart: the switches take
// tools out of what the model is sent and bring them back, and a child agent is assembled the
// way its parent is (the same compaction threshold, the same instructions).

const SWITCHED = ['Shell', 'ShellStatus', 'WebOpen', 'WebSearch']

async function send(h: CoreHarness, sessionId: string, text: string): Promise<NormalizedRequest> {
  const before = h.fake.chatRequests().length
  await h.client.call('session.send', { sessionId, text })
  await h.core.sessions.idle(sessionId)
  const request = h.fake.chatRequests()[before]
  if (!request) throw new Error(`the turn "${text}" sent no request to the model`)
  return request
}

/** The settings as the window saves them: what the file says, with `change` applied. */
async function saveThroughWindow(
  h: CoreHarness,
  change: (raw: Record<string, unknown>) => Record<string, unknown>
): Promise<void> {
  const { settings } = await h.client.call('settings.get', {})
  const saved = await h.client.call('settings.save', {
    settings: change(settings as Record<string, unknown>)
  })
  expect(saved).toEqual({ saved: true, issues: [] })
}

const sorted = (names: readonly string[]): string[] => [...names].sort()

describe('settings apply from the next turn', () => {
  it('Shell and web search switched off and on again change the next turn’s tools', async () => {
    const h = await startCoreHarness({ name: 'live-switches' })
    const replies: Step[] = Array.from({ length: 4 }, (_, i) => ({ text: `reply ${i}` }))
    h.fake.setScript(replies)
    const { id } = await h.client.call('session.create', { workspace: h.workspace })

    const first = await send(h, id, 'one')
    expect(first.tools).toEqual(expect.arrayContaining(SWITCHED))
    expect(first.tools).toEqual(sorted(first.tools))

    await saveThroughWindow(h, (raw) => ({
      ...raw,
      shell: { enabled: false },
      websearch: { enabled: false }
    }))
    const off = await send(h, id, 'two')
    expect(off.tools.filter((name) => SWITCHED.includes(name))).toEqual([])
    // Only the switched tools went: everything else is offered as before, in the same order.
    expect(off.tools).toEqual(first.tools.filter((name) => !SWITCHED.includes(name)))
    const listed = await h.client.call('tools.list', { workspace: h.workspace })
    expect(listed.tools.map((t) => t.name)).not.toContain('Shell')

    await saveThroughWindow(h, (raw) => ({
      ...raw,
      shell: { enabled: true },
      websearch: { enabled: true }
    }))
    const on = await send(h, id, 'three')
    expect(on.tools).toEqual(first.tools)
    expect(h.core.catalog.get('Shell')).toBeDefined()
  })

  it('a file edited in an editor applies to the next message of an open session', async () => {
    const h = await startCoreHarness({ name: 'live-file' })
    h.fake.setScript([{ text: 'a' }, { text: 'b' }])
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    const first = await send(h, id, 'one')
    // The folder has no skills, so of the skill tools only SkillDraft is offered (Skill is not).
    expect(first.tools).toEqual(expect.arrayContaining(['RememberUser', 'SkillDraft']))

    const raw = YAML.parse(await readFile(h.config, 'utf8')) as Record<string, unknown>
    await writeFile(
      h.config,
      YAML.stringify({
        ...raw,
        user_model: { enabled: false },
        skills: { enabled: false },
        subagents: [{ name: 'scout', description: 'Looks around.', tools: ['Read'] }]
      })
    )
    const next = await send(h, id, 'two')
    expect(next.tools.filter((name) => name.endsWith('User'))).toEqual([])
    expect(next.tools).not.toContain('SkillDraft')
    expect(next.tools).toContain('Agent_scout')
    const skills = await h.client.call('skills.list', { workspace: h.workspace })
    expect(skills.enabled).toBe(false)
  })

  it('a launch flag keeps its family off whatever the settings say', async () => {
    const h = await startCoreHarness({ name: 'live-flag', core: { shell: false } })
    h.fake.setScript([{ text: 'a' }])
    await saveThroughWindow(h, (raw) => ({ ...raw, shell: { enabled: true } }))
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    const request = await send(h, id, 'one')
    expect(request.tools).not.toContain('Shell')
    expect(request.tools).toContain('WebSearch')
  })
})

describe('a child agent is assembled as its parent is', () => {
  it('compacts at the parent’s threshold and reads the project’s instructions', async () => {
    const h = await startCoreHarness({
      name: 'child-compaction',
      settings: { compact_at_tokens: 1000 },
      files: { 'AGENTS.md': 'Always answer in French.\n', 'a.txt': 'alpha\n', 'b.txt': 'beta\n' }
    })
    const child = (req: NormalizedRequest): boolean => req.system.includes('sub-agent named')
    const summaries: NormalizedRequest[] = []
    h.fake.setScript([
      {
        toolCalls: [{ name: 'Subagent', input: { task: 'Read a.txt then b.txt', tools: ['Read'] } }]
      },
      { toolCalls: [{ name: 'Read', input: { path: 'a.txt' } }], usage: { input: 200 } },
      // Past the threshold now: the child's next step starts with a compaction.
      { toolCalls: [{ name: 'Read', input: { path: 'b.txt' } }], usage: { input: 5000 } },
      (req) => {
        if (req.system !== SUMMARY_SYSTEM) throw new Error('expected the summarising request')
        summaries.push(req)
        return { text: 'SUMMARY: read a.txt (alpha).', usage: { input: 10 } }
      },
      (req) => ({
        text: child(req) ? 'Bonjour: alpha, beta.' : 'not the child',
        usage: { input: 300 }
      }),
      (req) => ({ text: `The child said: ${latestToolResults(req)[0]?.content}` })
    ])
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await h.client.call('session.send', { sessionId: id, text: 'delegate the reading' })
    await h.core.sessions.idle(id)

    expect(h.fake.stepErrors()).toEqual([])
    const requests = h.fake.chatRequests()
    const childRequests = requests.filter(child)
    expect(childRequests).toHaveLength(3)
    for (const req of childRequests) expect(req.system).toContain('Always answer in French.')
    expect(summaries).toHaveLength(1)
    // The child's last request carries the summary in place of what it had read before.
    const last = childRequests.at(-1)
    const texts = (last?.messages ?? []).filter((m) => m.role !== 'system').map((m) => m.text)
    expect(texts[0]?.startsWith(SUMMARY_HEADER)).toBe(true)
    expect(texts[0]).toContain('SUMMARY: read a.txt (alpha).')
    expect(requests.at(-1)?.messages.at(-1)?.toolResults?.[0]?.content).toContain('Bonjour')
  })
})
