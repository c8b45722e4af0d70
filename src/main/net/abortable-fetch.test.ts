// A server that sends its headers and then nothing: the read must end when its deadline says,
// even once garbage collections have run while it waits (Node 20's fetch then loses track of
// a request's signal, and the read would wait for as long as the server keeps the socket). The
// requests say `redirect: 'error'`, as the local-server probe does: that is how plain fetch loses
// the signal here (with it, these tests hang on Node 20's fetch).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { underCollections } from '../../../testing/collections'
import { abortableFetch } from './abortable-fetch'
import { deadline, withDeadline } from './deadline'

let server: Server
let url = ''
beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.write('{"models": [')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/ps`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

describe('a body read from a server that went quiet', () => {
  it('ends on its deadline with the deadline as the reason, after collections', async () => {
    const started = Date.now()
    const read = underCollections(() =>
      withDeadline(300, async (signal) => {
        const response = await abortableFetch(url, { signal, redirect: 'error' })
        return response.json()
      })
    )
    await expect(read).rejects.toMatchObject({ name: 'TimeoutError' })
    // Long before the test's own limit: the server never closes the socket by itself.
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it('ends at once when the person stops it', async () => {
    const stop = new AbortController()
    const read = underCollections(() =>
      withDeadline(
        60_000,
        async (signal) => {
          const response = await abortableFetch(url, { signal, redirect: 'error' })
          setTimeout(() => stop.abort(new Error('stopped by the person')), 100)
          return response.text()
        },
        stop.signal
      )
    )
    await expect(read).rejects.toThrow('stopped by the person')
  })
})

describe('a deadline', () => {
  it('fires on time while collections run, saying it expired', async () => {
    const fired = await underCollections(
      () =>
        new Promise<boolean>((resolve) => {
          const limit = deadline(200)
          limit.signal.addEventListener('abort', () => resolve(limit.expired))
        })
    )
    expect(fired).toBe(true)
  })

  it('lets go of its parent when cleared, and follows it until then', () => {
    const parent = new AbortController()
    const cleared = deadline(60_000, parent.signal)
    cleared.clear()
    const live = deadline(60_000, parent.signal)
    parent.abort(new Error('stop'))
    expect(cleared.signal.aborted).toBe(false)
    expect(live.signal.aborted).toBe(true)
    expect(live.expired).toBe(false)
    live.clear()
  })
})
