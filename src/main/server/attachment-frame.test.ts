// The largest message the contract lets through, attachments included, fits in one WebSocket
// frame of browser mode: it reaches the handler and is answered, never closed as too big.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import WebSocket from 'ws'
import {
  base64Length,
  MAX_MESSAGE_FILES,
  MAX_MESSAGE_IMAGE_BYTES,
  MAX_MESSAGE_IMAGES,
  type Attachment
} from '../../shared/attachments'
import { MAX_MESSAGE_BYTES } from '../../shared/contract/message-size'
import { sendInputSchema } from '../../shared/contract/send-input'
import { createCore, type Core } from '../core'
import { MAX_FRAME_BYTES, startBrowserServer, type BrowserServer } from './browser-server'

let dir: string
let core: Core
let server: BrowserServer

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-attach-frame-')))
  const renderer = path.join(dir, 'renderer')
  await mkdir(renderer)
  await writeFile(path.join(renderer, 'index.html'), '<!doctype html><title>Mecatl</title>')
  core = await createCore({ dataDir: path.join(dir, 'home'), host: 'browser', interactive: true })
  server = await startBrowserServer({
    router: core.router,
    hub: core.hub,
    rendererDir: renderer,
    log: () => undefined
  })
})
afterEach(async () => {
  await server.close()
  await core.dispose()
  await rm(dir, { recursive: true, force: true })
})

/** Every part at its limit, in the characters JSON grows most (a control character: six bytes). */
function largestInput(): unknown {
  const control = (length: number): string => '\u0001'.repeat(length)
  const each = MAX_MESSAGE_IMAGE_BYTES / MAX_MESSAGE_IMAGES
  const images: Attachment[] = Array.from({ length: MAX_MESSAGE_IMAGES }, () => ({
    kind: 'image',
    name: control(255),
    mediaType: 'image/png',
    data: 'A'.repeat(base64Length(each))
  }))
  const files: Attachment[] = Array.from({ length: MAX_MESSAGE_FILES }, () => ({
    kind: 'file',
    path: control(4096)
  }))
  return {
    sessionId: 'no-such-session',
    text: control(MAX_MESSAGE_BYTES),
    attachments: [...images, ...files]
  }
}

it('the largest send the contract takes fits in one frame and is answered', async () => {
  const input = largestInput()
  expect(sendInputSchema.safeParse(input).success).toBe(true)
  const frame = JSON.stringify({ kind: 'call', id: 1, method: 'session.send', input })
  expect(Buffer.byteLength(frame)).toBeLessThan(MAX_FRAME_BYTES)

  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/rpc?token=${server.token}`, {
    headers: { origin: `http://127.0.0.1:${server.port}` },
    maxPayload: MAX_FRAME_BYTES
  })
  await new Promise((resolve, reject) => {
    ws.once('open', resolve)
    ws.once('error', reject)
  })
  const answer = await new Promise<{ kind: string; error?: { code: string } } | number>(
    (resolve) => {
      ws.on('message', (data) => {
        const parsed = JSON.parse(data.toString()) as { kind: string; id?: number }
        if (parsed.id === 1) resolve(parsed)
      })
      ws.once('close', (code) => resolve(code))
      ws.send(frame)
    }
  )
  // Answered by the handler (there is no such session), not closed with 1009 (too big).
  expect(answer).toMatchObject({ kind: 'error', error: { code: 'not_found' } })
  ws.close()
})
