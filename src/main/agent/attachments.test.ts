// Images and project files sent with a message: on the wire of each API as it takes them, refused
// in main (whatever the window checked) for a model that cannot see and for paths outside the
// project, recorded on the message and carried again after a restart.
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Attachment } from '../../shared/attachments'
import { attachedFileLine, imagesRefusal } from '../../shared/attachments'
import { startCoreHarness, type CoreHarness, type FakeFormat } from '../../../testing/core-harness'
import { jpegBytes, pngBytes } from '../../../testing/image-fixtures'

const png = pngBytes(2, 2).toString('base64')
const image: Attachment = { kind: 'image', name: 'shot.png', mediaType: 'image/png', data: png }

/** A model each API's capability list says takes images, so no setting is needed. */
const visionModel: Record<'openai' | 'anthropic', string> = {
  openai: 'gpt-4o',
  anthropic: 'claude-sonnet-4-5'
}

async function harness(format: 'openai' | 'anthropic', model: string): Promise<CoreHarness> {
  return startCoreHarness({
    name: 'attach',
    format: format satisfies FakeFormat,
    script: [{ text: 'seen' }, { text: 'again' }],
    files: { 'a.ts': 'export const a = 1\n' },
    settings: { default_model: { provider: 'fake', model } }
  })
}

async function send(
  h: CoreHarness,
  sessionId: string,
  text: string,
  attachments: Attachment[]
): Promise<void> {
  await h.client.call('session.send', { sessionId, text, attachments })
  await h.core.sessions.idle(sessionId)
}

/** The last chat request's messages as sent, without Anthropic's cache breakpoints. */
function lastBody(h: CoreHarness): { messages: Record<string, unknown>[] } {
  const chat = h.fake.requests.filter((r) => r.normalized !== undefined)
  const text = JSON.stringify(chat.at(-1)?.body, (key, value: unknown) =>
    key === 'cache_control' ? undefined : value
  )
  return JSON.parse(text) as { messages: Record<string, unknown>[] }
}

describe('an image sent to a model that takes images', () => {
  it('Anthropic: an image block with a base64 source, before the text', async () => {
    const h = await harness('anthropic', visionModel.anthropic)
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await send(h, id, 'what is this?', [image])
    expect(lastBody(h).messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
        { type: 'text', text: 'what is this?' }
      ]
    })
    const user = h.fake.chatRequests().at(-1)?.messages.at(-1)
    expect(user?.images).toEqual([{ mediaType: 'image/png', data: png }])
  })

  it('OpenAI: an image_url part holding a data URL, after the text', async () => {
    const h = await harness('openai', visionModel.openai)
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await send(h, id, 'what is this?', [image])
    expect(lastBody(h).messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } }
      ]
    })
    expect(h.fake.chatRequests().at(-1)?.messages.at(-1)?.images).toEqual([
      { mediaType: 'image/png', data: png }
    ])
  })

  it('may go without text, and the message has no empty text block', async () => {
    const h = await harness('anthropic', visionModel.anthropic)
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await send(h, id, '', [image])
    expect(lastBody(h).messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } }]
    })
  })

  it('is recorded on the message and carried again after a restart', async () => {
    const h = await harness('openai', visionModel.openai)
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await send(h, id, 'look', [image, { kind: 'file', path: 'a.ts' }])
    await h.restart()
    const { transcript } = await h.client.call('session.get', { sessionId: id })
    const user = transcript.find((item) => item.kind === 'user')
    expect(user?.kind === 'user' && user.attachments).toEqual([
      image,
      { kind: 'file', path: 'a.ts' }
    ])
    await send(h, id, 'and now?', [])
    const first = h.fake
      .chatRequests()
      .at(-1)
      ?.messages.find((m) => m.role === 'user')
    expect(first?.images).toEqual([{ mediaType: 'image/png', data: png }])
    expect(first?.text).toBe(`look\n\n${attachedFileLine('a.ts')}`)
  })

  it('is told as a line, not sent, once the session changes to a model without images', async () => {
    const h = await harness('openai', visionModel.openai)
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await send(h, id, 'look', [image])
    await h.client.call('session.setModel', {
      sessionId: id,
      model: { providerId: 'fake', model: 'fake-model' }
    })
    await send(h, id, 'and now?', [])
    const first = h.fake
      .chatRequests()
      .at(-1)
      ?.messages.find((m) => m.role === 'user')
    expect(first).toEqual({
      role: 'user',
      text: 'look\n\n[1 image not shown: this model does not take images]'
    })
  })

  it('goes by what its bytes are, not by the type the window gave', async () => {
    const h = await harness('anthropic', visionModel.anthropic)
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    const jpeg = jpegBytes(2, 2).toString('base64')
    await send(h, id, 'hi', [{ ...image, mediaType: 'image/png', data: jpeg }])
    expect(h.fake.chatRequests().at(-1)?.messages.at(-1)?.images).toEqual([
      { mediaType: 'image/jpeg', data: jpeg }
    ])
  })
})

describe('refused in main before anything is sent', () => {
  it('an image for a model that does not take images, with the sentence', async () => {
    const h = await harness('openai', 'fake-model')
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await expect(
      h.client.call('session.send', { sessionId: id, text: 'see', attachments: [image] })
    ).rejects.toThrow(imagesRefusal('fake-model'))
    expect(h.fake.chatRequests()).toEqual([])
    const { transcript } = await h.client.call('session.get', { sessionId: id })
    expect(transcript).toEqual([])
  })

  it('an image for the session’s own text-only model, though the default takes images', async () => {
    const h = await harness('openai', visionModel.openai)
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await h.client.call('session.setModel', {
      sessionId: id,
      model: { providerId: 'fake', model: 'llama3' }
    })
    await expect(
      h.client.call('session.send', { sessionId: id, text: 'see', attachments: [image] })
    ).rejects.toThrow(imagesRefusal('llama3'))
  })

  it('bytes that are no image, and base64 that is not base64', async () => {
    const h = await harness('openai', visionModel.openai)
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    const text = Buffer.from('<svg onload=alert(1)>').toString('base64')
    await expect(
      h.client.call('session.send', {
        sessionId: id,
        text: 'x',
        attachments: [{ ...image, data: text }]
      })
    ).rejects.toThrow(/is not a PNG, JPEG, GIF or WebP image/)
    await expect(
      h.client.call('session.send', {
        sessionId: id,
        text: 'x',
        attachments: [{ ...image, data: `${png.slice(0, 8)}"}]}` }]
      })
    ).rejects.toThrow(/base64/)
    expect(h.fake.chatRequests()).toEqual([])
  })

  it('nine images, or more bytes of images than one message carries', async () => {
    const h = await harness('openai', visionModel.openai)
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    const nine = Array.from({ length: 9 }, () => image)
    await expect(
      h.client.call('session.send', { sessionId: id, text: 'x', attachments: nine })
    ).rejects.toThrow(/at most 8/)
    const big = { ...image, data: Buffer.alloc(3.5 * 1024 * 1024).toString('base64') }
    await expect(
      h.client.call('session.send', { sessionId: id, text: 'x', attachments: [big, big] })
    ).rejects.toThrow(/at most 6\.0 MB of images/)
    const huge = { ...image, data: Buffer.alloc(4 * 1024 * 1024).toString('base64') }
    await expect(
      h.client.call('session.send', { sessionId: id, text: 'x', attachments: [huge] })
    ).rejects.toThrow(/invalid input/)
  })

  it('nothing at all: no text and no attachment', async () => {
    const h = await harness('openai', visionModel.openai)
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await expect(
      h.client.call('session.send', { sessionId: id, text: '', attachments: [] })
    ).rejects.toThrow(/write a message or attach something/)
  })
})

describe('a project file attached by reference', () => {
  it('gives the model a line naming its project-relative path for Read', async () => {
    const h = await harness('anthropic', 'fake-model')
    await mkdir(path.join(h.workspace, 'src'))
    await writeFile(path.join(h.workspace, 'src', 'b.ts'), 'b\n')
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await send(h, id, 'review these', [
      { kind: 'file', path: './src//b.ts' },
      { kind: 'file', path: 'a.ts' },
      { kind: 'file', path: 'src/../a.ts' }
    ])
    const user = h.fake.chatRequests().at(-1)?.messages.at(-1)
    expect(user?.text).toBe(
      `review these\n\n${attachedFileLine('src/b.ts')}\n${attachedFileLine('a.ts')}`
    )
    expect(user?.images).toBeUndefined()
  })

  it('is refused outside the project: .., absolute, a link leading out, a folder, a missing file', async () => {
    const h = await harness('openai', 'fake-model')
    await symlink(path.dirname(h.workspace), path.join(h.workspace, 'up'))
    await writeFile(path.join(h.dir, 'secret.txt'), 'no')
    await mkdir(path.join(h.workspace, 'docs'))
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    const refusal = (p: string): Promise<unknown> =>
      h.client.call('session.send', {
        sessionId: id,
        text: 'x',
        attachments: [{ kind: 'file', path: p }]
      })
    await expect(refusal('../secret.txt')).rejects.toThrow(/outside the project folder/)
    await expect(refusal('up/secret.txt')).rejects.toThrow(/outside the project folder/)
    await expect(refusal(path.join(h.dir, 'secret.txt'))).rejects.toThrow(
      /not a path relative to the project folder/
    )
    await expect(refusal('docs')).rejects.toThrow(/is not a file/)
    await expect(refusal('gone.ts')).rejects.toThrow(/does not exist in the project folder/)
    await expect(refusal('a.ts\0x')).rejects.toThrow(/outside the project folder|NUL/)
    expect(h.fake.chatRequests()).toEqual([])
  })
})
