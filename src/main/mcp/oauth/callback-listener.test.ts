import { describe, expect, it } from 'vitest'
import { listenForCallback } from './callback-listener'

describe('the loopback listener of one sign-in', () => {
  it('listens on 127.0.0.1 only, takes the first callback alone and refuses anything else', async () => {
    const listener = await listenForCallback('notion')
    const url = new URL(listener.redirectUrl)
    expect(url.hostname).toBe('127.0.0.1')
    expect(url.pathname).toBe('/callback')
    const origin = url.origin
    expect((await fetch(`${origin}/`)).status).toBe(404)
    expect((await fetch(`${origin}/callback`, { method: 'POST' })).status).toBe(404)
    expect((await fetch(`${origin}/callback/../other`)).status).toBe(404)
    const first = fetch(`${listener.redirectUrl}?code=abc&state=s1`)
    expect(await listener.result).toEqual({ code: 'abc', state: 's1', error: null })
    // A second answer (another page racing the real one) is not taken.
    expect((await fetch(`${listener.redirectUrl}?code=evil&state=s1`)).status).toBe(404)
    listener.finish({ ok: true, message: 'You can close this tab <now>.' })
    const page = await (await first).text()
    expect(page).toContain('Signed in to notion')
    // What goes into the page is escaped.
    expect(page).toContain('&lt;now&gt;')
    await expect(fetch(listener.redirectUrl)).rejects.toThrow()
  })

  it('carries the server’s refusal, and ends with nothing when closed before any answer', async () => {
    const refused = await listenForCallback('notion')
    void fetch(`${refused.redirectUrl}?error=access_denied&error_description=nope`).catch(
      () => undefined
    )
    expect(await refused.result).toEqual({ code: null, state: null, error: 'access_denied: nope' })
    refused.finish({ ok: false, message: 'refused' })
    const abandoned = await listenForCallback('notion')
    abandoned.close()
    expect(await abandoned.result).toBeNull()
  })
})
