import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ToolContext } from '../tool'
import { gifBytes, jpegBytes, pngBytes, webpBytes } from '../../../../testing/image-fixtures'
import { readTool } from './read'
import {
  createTestWorkspace,
  textOf,
  type TestWorkspace
} from '../../../../testing/fs-test-context'

let ws: TestWorkspace
beforeEach(async () => {
  ws = await createTestWorkspace()
})
afterEach(async () => {
  await ws.cleanup()
})

const at = (name: string): string => path.join(ws.root, name)

/** Reads as a session whose model does (or does not) take images. */
async function read(
  input: unknown,
  modelSupportsImages: boolean
): ReturnType<typeof readTool.call> {
  const ctx: ToolContext = { ...ws.ctx, modelSupportsImages }
  return readTool.call(readTool.inputSchema.parse(input), ctx)
}

describe('Read of an image', () => {
  it('returns the picture to a model that takes images, with what it is', async () => {
    const bytes = pngBytes(512, 256)
    await writeFile(at('logo.png'), bytes)
    const out = await read({ path: 'logo.png' }, true)
    expect(out.isError).toBe(false)
    expect(out.content).toEqual([
      { type: 'text', text: '`logo.png` is a PNG image, 512×256, 37 bytes' },
      { type: 'image', mediaType: 'image/png', data: bytes.toString('base64') }
    ])
    expect(out.display).toEqual({
      kind: 'image',
      path: 'logo.png',
      mediaType: 'image/png',
      bytes: 37
    })
  })

  it('describes it in words to a model that does not', async () => {
    await writeFile(at('photo.jpg'), Buffer.concat([jpegBytes(640, 480), Buffer.alloc(34 * 1024)]))
    const out = await read({ path: 'photo.jpg' }, false)
    expect(out.isError).toBe(false)
    expect(out.content).toEqual([
      {
        type: 'text',
        text: '`photo.jpg` is a JPEG image, 640×480, 34 KB; this model does not take images'
      }
    ])
    expect(out.display).toMatchObject({ kind: 'image', mediaType: 'image/jpeg' })
  })

  it('knows GIF and WebP too', async () => {
    await writeFile(at('a.gif'), gifBytes(16, 9))
    await writeFile(at('b.webp'), webpBytes('VP8L', 100, 50))
    expect(textOf(await read({ path: 'a.gif' }, false))).toBe(
      '`a.gif` is a GIF image, 16×9, 14 bytes; this model does not take images'
    )
    const webp = await read({ path: 'b.webp' }, true)
    expect(webp.content[1]).toMatchObject({ type: 'image', mediaType: 'image/webp' })
  })

  it('goes by the bytes, not the name', async () => {
    await writeFile(at('not-really.png'), 'just text\n')
    await writeFile(at('picture.txt'), pngBytes(2, 2))
    expect(textOf(await read({ path: 'not-really.png' }, true))).toBe('     1\tjust text')
    expect(textOf(await read({ path: 'picture.txt' }, false))).toContain(
      '`picture.txt` is a PNG image, 2×2'
    )
  })

  it('records the read, so Write may replace the image afterwards', async () => {
    await writeFile(at('logo.png'), pngBytes(1, 1))
    await read({ path: 'logo.png' }, true)
    expect(ws.ctx.reads.check(at('logo.png'), await readFile(at('logo.png')))).toEqual({ ok: true })
  })

  describe('refuses', () => {
    it('offset or limit, which only apply to text', async () => {
      await writeFile(at('logo.png'), pngBytes(1, 1))
      for (const extra of [{ offset: 1 }, { limit: 10 }, { offset: 2, limit: 2 }]) {
        const out = await read({ path: 'logo.png', ...extra }, true)
        expect(out.isError).toBe(true)
        expect(textOf(out)).toBe(
          '`logo.png` is a PNG image; offset and limit apply to text files, so Read it with just the path'
        )
      }
      expect(ws.ctx.reads.check(at('logo.png'), await readFile(at('logo.png'))).ok).toBe(false)
    })

    it('an image over 10 MiB, saying it is an image', async () => {
      await writeFile(
        at('huge.png'),
        Buffer.concat([pngBytes(9000, 9000), Buffer.alloc(10 * 1024 * 1024)])
      )
      const out = await read({ path: 'huge.png' }, true)
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe(
        '`huge.png` is a PNG image of 10.0 MB; images over 10 MiB are not shown, so look at a smaller copy instead'
      )
    })

    it('a binary file that is not an image, as before', async () => {
      await writeFile(at('x.bin'), Buffer.from([1, 2, 0, 3]))
      expect(textOf(await read({ path: 'x.bin' }, true))).toBe(
        '`x.bin` is a binary file (4 bytes); Read shows text files'
      )
    })
  })
})
