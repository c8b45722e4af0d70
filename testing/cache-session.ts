// A scripted 30-turn session over the real core and the fake Anthropic server, for the prompt
// cache: tool calls, a plan kept with Todo, a loaded skill and a compaction, as a long working
// session has them. The prefix-stability test and the caching benchmark both run it. Not shipped.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import YAML from 'yaml'
import { SUMMARY_SYSTEM } from '../src/main/agent/compaction'
import { createCore } from '../src/main/core'
import { createMemoryPair } from '../src/main/rpc/memory-transport'
import { WorkspaceTrust } from '../src/main/workspace/workspace-trust'
import type { PromptCache } from '../src/main/providers/anthropic-cache'
import {
  latestUserText,
  startFakeModelServer,
  type NormalizedRequest,
  type RecordedRequest,
  type Reply
} from './fake-model-server'

export const cacheSessionTurns = 30
/** The turn whose reply asks for a compaction, part-way through. */
export const compactionTurn = 18
/** Simulated time between two requests: a working session, well inside the cache's 5 minutes. */
const stepMs = 20_000

export interface CacheSessionRun {
  /** The main conversation's chat requests, in order, each with the turn it belongs to. */
  turns: { turn: number; request: RecordedRequest }[]
  /** The summarising requests of the compaction. */
  summaries: RecordedRequest[]
  /** Chat requests the script did not expect (it answers every one, so none is a failure). */
  exhausted: number
}

const plan = (done: number): { items: { text: string; status: string }[] } => ({
  items: ['Read the notes', 'Load the release-notes skill', 'Draft the notes', 'Check them'].map(
    (text, i) => ({ text, status: i < done ? 'done' : i === done ? 'in_progress' : 'pending' })
  )
})

/** What the fake model does on turn `turn` when it has just been asked (no results yet). */
function firstStep(turn: number): Reply {
  if (turn === 1) return { text: 'Planning.', toolCalls: [{ name: 'Todo', input: plan(0) }] }
  if (turn === 2) {
    return {
      text: 'Loading the skill.',
      toolCalls: [{ name: 'Skill', input: { name: 'release-notes' } }]
    }
  }
  if (turn === compactionTurn)
    return { text: 'Compacting.', toolCalls: [{ name: 'Compact', input: {} }] }
  if (turn % 7 === 0) return { toolCalls: [{ name: 'Todo', input: plan(Math.min(3, turn / 7)) }] }
  if (turn % 3 === 0) {
    // Two calls in one step, as models often make them.
    return {
      text: `Reading for turn ${turn}.`,
      toolCalls: [
        { name: 'Read', input: { path: 'notes.md' } },
        { name: 'Read', input: { path: `part-${turn % 4}.md` } }
      ]
    }
  }
  return { text: `Answer ${turn}: ${'details of the change, '.repeat(12)}done.` }
}

/**
 * The turn a request belongs to, by the newest "Turn N:" the person wrote. The last one, since
 * Anthropic's alternating roles fold the compaction's summary and the next message into one.
 */
function turnOf(req: NormalizedRequest): number {
  const all = [...latestUserText(req).matchAll(/Turn (\d+):/g)]
  return Number(all.at(-1)?.[1] ?? 0)
}

/** Answers any request of the session: the summary, a first step, or the reply after results. */
function step(req: NormalizedRequest): Reply {
  if (req.system === SUMMARY_SYSTEM) return { text: 'The person is drafting release notes.' }
  const turn = turnOf(req)
  const last = req.messages.at(-1)
  if (last?.role === 'tool') return { text: `Done with the calls of turn ${turn}.` }
  return firstStep(turn)
}

/**
 * Runs the session in `dir` (a fresh temp directory the caller removes) with the provider's
 * `prompt_cache` setting, and returns what the fake server received and answered.
 */
export async function runCacheSession(
  dir: string,
  promptCache: PromptCache
): Promise<CacheSessionRun> {
  const workspace = path.join(dir, 'project')
  const home = path.join(dir, 'home')
  const config = path.join(dir, 'settings.yaml')
  await mkdir(path.join(workspace, '.mecatl', 'skills', 'release-notes'), { recursive: true })
  await writeFile(
    path.join(workspace, '.mecatl', 'skills', 'release-notes', 'SKILL.md'),
    '---\nname: release-notes\ndescription: Write release notes, grouped by area\n---\nCollect the merged changes since the last tag.\nGroup them by area.\n'
  )
  await writeFile(
    path.join(workspace, 'notes.md'),
    '# Notes\n' + '- a change worth a line\n'.repeat(40)
  )
  for (let i = 0; i < 4; i++) {
    await writeFile(
      path.join(workspace, `part-${i}.md`),
      `# Part ${i}\n` + 'text of the part\n'.repeat(30)
    )
  }
  let now = 1_000_000
  const fake = await startFakeModelServer({
    requireKey: 'sk-test',
    clock: () => now,
    script: Array.from({ length: 400 }, () => (req: NormalizedRequest): Reply => {
      now += stepMs
      return step(req)
    })
  })
  try {
    await writeFile(
      config,
      YAML.stringify({
        providers: [
          {
            id: 'fake',
            kind: 'anthropic',
            base_url: fake.anthropicBaseUrl,
            api_key_env: 'FAKE_KEY',
            // The default is left unsaid, as a person's settings file leaves it.
            ...(promptCache === '5m' ? {} : { prompt_cache: promptCache })
          }
        ],
        default_model: { provider: 'fake', model: 'fake-model' },
        permissions: { mode: 'allow' }
      })
    )
    await new WorkspaceTrust(home).set(workspace, 'trusted')
    const core = await createCore({
      dataDir: home,
      configPath: config,
      host: 'cli',
      interactive: false,
      env: { FAKE_KEY: 'sk-test' }
    })
    const client = createMemoryPair(core.router, core.hub)
    try {
      const session = await client.call('session.create', { workspace })
      for (let turn = 1; turn <= cacheSessionTurns; turn++) {
        await client.call('session.send', {
          sessionId: session.id,
          text: `Turn ${turn}: carry on with the release notes, part ${turn}.`
        })
        await core.sessions.idle(session.id)
      }
    } finally {
      client.close()
      await core.dispose()
    }
    const chats = fake.requests.filter((r) => r.normalized !== undefined)
    return {
      turns: chats
        .filter((r) => r.normalized?.system !== SUMMARY_SYSTEM)
        .map((request) => ({
          turn: request.normalized ? turnOf(request.normalized) : 0,
          request
        })),
      summaries: chats.filter((r) => r.normalized?.system === SUMMARY_SYSTEM),
      exhausted: fake.exhaustedRequests().length
    }
  } finally {
    await fake.close()
  }
}

/** One request's prompt as the cache sees it: each block serialised, marks left out. */
export function promptBlocks(body: unknown): string[] {
  const request = (body ?? {}) as Record<string, unknown>
  const out: string[] = []
  const add = (where: string, block: unknown): void => {
    const { cache_control: _mark, ...rest } = (block ?? {}) as Record<string, unknown>
    out.push(JSON.stringify([where, rest]))
  }
  for (const tool of asList(request['tools'])) add('tool', tool)
  const system = request['system']
  if (typeof system === 'string') add('system', { type: 'text', text: system })
  else for (const block of asList(system)) add('system', block)
  for (const message of asList(request['messages'])) {
    const { role, content } = (message ?? {}) as { role?: string; content?: unknown }
    if (typeof content === 'string') add(role ?? '', { type: 'text', text: content })
    else for (const block of asList(content)) add(role ?? '', block)
  }
  return out
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}
