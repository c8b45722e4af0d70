import { describe, expect, it } from 'vitest'
import { gifBytes, jpegBytes, pngBytes, webpBytes } from '../../../../testing/image-fixtures'
import { sniffImage } from './image-info'
import { humanBytes, humanLimit } from './lines'

describe('sniffImage', () => {
  it('recognises each format by its bytes and reads its size', () => {
    expect(sniffImage(pngBytes(512, 256))).toEqual({
      format: 'PNG',
      mediaType: 'image/png',
      width: 512,
      height: 256
    })
    expect(sniffImage(jpegBytes(640, 480))).toMatchObject({
      format: 'JPEG',
      width: 640,
      height: 480
    })
    expect(sniffImage(gifBytes(16, 9))).toMatchObject({ format: 'GIF', width: 16, height: 9 })
    expect(sniffImage(webpBytes('VP8 ', 300, 200))).toMatchObject({
      format: 'WebP',
      width: 300,
      height: 200
    })
    expect(sniffImage(webpBytes('VP8L', 1024, 768))).toMatchObject({ width: 1024, height: 768 })
    expect(sniffImage(webpBytes('VP8X', 4000, 3000))).toMatchObject({ width: 4000, height: 3000 })
  })

  it('still names a truncated image, without a size', () => {
    expect(sniffImage(pngBytes(1, 1).subarray(0, 10))).toMatchObject({ format: 'PNG', width: null })
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toMatchObject({
      format: 'JPEG',
      height: null
    })
  })

  it('says null for anything else, whatever it might be called', () => {
    expect(sniffImage(Buffer.from('‰PNG but really text\n'))).toBeNull()
    expect(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull()
    expect(sniffImage(Buffer.from('RIFF....WAVEfmt '))).toBeNull()
    expect(sniffImage(Buffer.alloc(0))).toBeNull()
  })
})

describe('humanBytes', () => {
  it('writes sizes as a person reads them', () => {
    expect(humanBytes(67)).toBe('67 bytes')
    expect(humanBytes(34 * 1024 + 100)).toBe('34 KB')
    expect(humanBytes(12.34 * 1024 * 1024)).toBe('12.3 MB')
    expect(humanLimit(2 ** 30)).toBe('1 GiB')
    expect(humanLimit(30)).toBe('30 bytes')
  })
})
