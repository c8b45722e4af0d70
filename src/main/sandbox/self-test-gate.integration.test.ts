// The sandbox's self-test is off the way to the first request: no core runs it as it starts, a
// turn sends its first request before it has answered, and a Shell command that reply asks for
// waits for the answer: confined once the sandbox passed, refused (nothing run) when it failed.
import { existsSync } from 'node:fs'
import { chmod, copyFile, mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Core } from '../core'
import { createMemoryPair } from '../rpc/memory-transport'
import { startFakeModelServer, type FakeModelServer } from '../../../testing/fake-model-server'
import {
  closeSandboxPlaces,
  openSandboxCore,
  sandboxPlace,
  type SandboxPlace
} from '../../../testing/sandbox-place'
import { findOnPath } from './backend'
import { SandboxService } from './sandbox-service'

const servers: FakeModelServer[] = []
afterEach(async () => {
  vi.restoreAllMocks()
  await closeSandboxPlaces()
  for (const server of servers.splice(0)) await server.close()
})

/**
 * A folder for PATH holding `bwrap`: a copy of the system's (a program this process has not
 * proved, so its self-test really runs), or a script that fails as a broken one does.
 */
async function bwrapAt(at: SandboxPlace, kind: 'copy' | 'broken'): Promise<string> {
  const bin = path.join(at.dir, 'bin')
  await mkdir(bin)
  const bwrap = path.join(bin, 'bwrap')
  if (kind === 'broken') {
    await writeFile(bwrap, '#!/bin/sh\necho "bwrap: broken on purpose" >&2\nexit 1\n')
  } else {
    const system = findOnPath('bwrap', { PATH: process.env.PATH })
    if (!system) throw new Error('these tests need bubblewrap (apt-get install bubblewrap)')
    await copyFile(system, bwrap)
  }
  await chmod(bwrap, 0o755)
  return bin
}

interface Turn {
  core: Core
  /** Where the sandbox stood when the first request reached the model. */
  atFirstRequest: string
  /** In order: when the sandbox answered its self-test, and when the Shell call was judged. */
  order: ('sandbox answered' | 'Shell judged')[]
  /** Shell's description in that request. */
  shellDescription: string
  /** What the Shell call answered, as the model got it. */
  shellResult: string
}

/** One turn whose model asks at once for `command` in Shell, under the bwrap in `bin`. */
async function turnWithShell(at: SandboxPlace, bin: string, command: string): Promise<Turn> {
  let core: Core | null = null
  let atFirstRequest = 'not asked'
  const order: Turn['order'] = []
  const prepare = SandboxService.prototype.prepare
  vi.spyOn(SandboxService.prototype, 'prepare').mockImplementation(async function (
    this: SandboxService,
    settings
  ) {
    const status = await prepare.call(this, settings)
    if (!order.includes('sandbox answered')) order.push('sandbox answered')
    return status
  })
  const fake = await startFakeModelServer({
    script: [
      () => {
        if (core) atFirstRequest = core.sandbox.status(core.settings.snapshot()).state
        return { toolCalls: [{ name: 'Shell', input: { command } }] }
      },
      { text: 'done' }
    ]
  })
  servers.push(fake)
  core = await openSandboxCore(
    at,
    {
      providers: [{ id: 'fake', kind: 'openai-compatible', base_url: fake.openaiBaseUrl }],
      default_model: { provider: 'fake', model: 'fake-model' }
    },
    { PATH: `${bin}:${process.env.PATH ?? ''}` }
  )
  // A call's card appears as the gate takes it up, before it decides.
  core.hub.on('transcript.item', ({ item }) => {
    if (item.kind === 'tool' && !order.includes('Shell judged')) order.push('Shell judged')
  })
  const client = createMemoryPair(core.router, core.hub)
  const session = await client.call('session.create', { workspace: at.workspace })
  await client.call('session.send', { sessionId: session.id, text: 'run it' })
  await core.sessions.idle(session.id)
  client.close()
  const first = fake.requests.find((request) => request.normalized)?.body as {
    tools?: { function: { name: string; description: string } }[]
  }
  return {
    core,
    atFirstRequest,
    order,
    shellDescription:
      first.tools?.find((tool) => tool.function.name === 'Shell')?.function.description ?? '',
    shellResult: fake.lastToolResults()[0]?.content ?? ''
  }
}

describe('a turn started before the sandbox has answered its self-test', () => {
  it('is not held up by it: no core runs the self-test as it starts', async () => {
    const at = await sandboxPlace('self-test-gate')
    const prepare = vi.spyOn(SandboxService.prototype, 'prepare')
    const core = await openSandboxCore(at)
    expect(prepare).not.toHaveBeenCalled()
    expect(core.sandbox.status(core.settings.snapshot()).state).toBe('checking')
    // A host that is up asks for it in the background (serve, the desktop app).
    core.warmUp()
    expect(prepare).toHaveBeenCalledTimes(1)
    expect((await prepare.mock.results[0]?.value)?.state).toBe('confined')
  })

  it('sends its first request at once, and runs the Shell call it gets confined, after the pass', async () => {
    const at = await sandboxPlace('self-test-gate')
    const bin = await bwrapAt(at, 'copy')
    const secret = path.join(at.home, 'secret.txt')
    await writeFile(secret, 'PLANTED-SECRET\n')
    const turn = await turnWithShell(at, bin, `cat ${secret}; grep '^CapEff:' /proc/self/status`)
    expect(turn.atFirstRequest).toBe('checking')
    expect(turn.order).toEqual(['sandbox answered', 'Shell judged'])
    // Told what it will be once the sandbox passes, so the pass changes nothing it was told.
    expect(turn.shellDescription).toContain('Commands run confined (bubblewrap)')
    // It ran (its capabilities line is there), inside: none held, the home out of sight.
    expect(turn.shellResult).toMatch(/CapEff:\s*0+\b/)
    expect(turn.shellResult).not.toContain('PLANTED-SECRET')
    // The facts Shell is judged by follow the answer: confined with no network, it sends nothing.
    expect(turn.core.catalog.get('Shell')?.capabilities.egress).toBe('none')
  })

  it('refuses the Shell call, running nothing, when the self-test then fails', async () => {
    const at = await sandboxPlace('self-test-gate')
    const bin = await bwrapAt(at, 'broken')
    const marker = path.join(at.workspace, 'ran.txt')
    const turn = await turnWithShell(at, bin, `touch ${marker}`)
    expect(turn.atFirstRequest).toBe('checking')
    expect(turn.order).toEqual(['sandbox answered', 'Shell judged'])
    expect(turn.shellResult).toMatch(
      /^Shell is refused: the sandbox cannot be used \(bubblewrap failed its self-test: the sandbox did not start/
    )
    expect(existsSync(marker)).toBe(false)
    expect(turn.core.catalog.get('Shell')?.capabilities.egress).toBe('chosen')
  })
})
