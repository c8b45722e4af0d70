import { mkdtemp, realpath, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ServerFrame } from '../../shared/contract'
import { createCore, type Core } from '../core'
import { openConnection } from './connection'

let dir: string
let core: Core

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-connection-')))
  core = await createCore({ dataDir: path.join(dir, 'home'), host: 'cli', interactive: true })
})
afterEach(async () => {
  await core.dispose()
  await rm(dir, { recursive: true, force: true })
})

/** Resolves once `frames` holds `count` frames; the router answers on later ticks. */
async function settle(frames: unknown[], count: number): Promise<void> {
  for (let i = 0; i < 200 && frames.length < count; i++) {
    await new Promise((resolve) => setImmediate(resolve))
  }
}

describe('connection', () => {
  it('answers a call frame it cannot read, when it can tell which call it was', async () => {
    const sent: ServerFrame[] = []
    const connection = openConnection(core.router, core.hub, 'test', (frame) => sent.push(frame))
    expect(connection.receive({ kind: 'call', id: 3 })).toBe(false)
    expect(connection.receive({ kind: 'call', id: 4, method: 12, input: {} })).toBe(false)
    expect(connection.receive({ kind: 'nonsense' })).toBe(false)
    expect(connection.receive({ kind: 'ready' })).toBe(true)
    expect(sent).toEqual([
      {
        kind: 'error',
        id: 3,
        error: { code: 'invalid_input', message: expect.stringMatching(/not a call frame/) }
      },
      { kind: 'error', id: 4, error: expect.objectContaining({ code: 'invalid_input' }) }
    ])
    connection.close()
  })

  it('answers with an error when the result cannot be sent, and leaves no promise to crash', async () => {
    const sent: ServerFrame[] = []
    const reported: string[] = []
    let refusals = 1
    const connection = openConnection(
      core.router,
      core.hub,
      'test',
      (frame) => {
        // The transport cannot carry this answer (a result JSON cannot encode, say).
        if (frame.kind === 'result' && refusals-- > 0) throw new TypeError('cannot serialize')
        sent.push(frame)
      },
      (line) => reported.push(line)
    )
    expect(connection.receive({ kind: 'call', id: 9, method: 'tools.list', input: {} })).toBe(true)
    await settle(sent, 1)
    expect(sent).toEqual([
      {
        kind: 'error',
        id: 9,
        error: { code: 'internal', message: expect.stringMatching(/tools\.list.*cannot serialize/) }
      }
    ])
    expect(reported).toEqual([expect.stringMatching(/tools\.list.*cannot serialize/)])
    connection.close()
  })

  it('survives a transport that cannot send anything at all', async () => {
    const reported: string[] = []
    const connection = openConnection(
      core.router,
      core.hub,
      'test',
      () => {
        throw new Error('socket gone')
      },
      (line) => reported.push(line)
    )
    connection.receive({ kind: 'call', id: 1, method: 'tools.list', input: {} })
    await settle(reported, 2)
    // Once for the answer that was lost, once for the error answer that could not go either.
    expect(reported).toEqual([
      expect.stringMatching(/tools\.list.*socket gone/),
      expect.stringMatching(/could not answer tools\.list \(id 1\): socket gone/)
    ])
    connection.close()
  })
})
