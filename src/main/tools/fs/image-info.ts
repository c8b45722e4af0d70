/** What the first bytes of a file say about the image in it. */
export interface ImageInfo {
  /** `PNG`, `JPEG`, `GIF` or `WebP`. */
  format: string
  mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'
  /** Pixels, when the header could be read; a truncated or odd file leaves them null. */
  width: number | null
  height: number | null
}

/**
 * Recognises PNG, JPEG, GIF and WebP by their signature bytes (never by the file name) and reads
 * the picture's size from the header. Returns null for anything else.
 */
export function sniffImage(bytes: Buffer): ImageInfo | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    // The IHDR chunk comes first: width and height as big-endian 32-bit numbers.
    const ok = bytes.length >= 24 && bytes.toString('latin1', 12, 16) === 'IHDR'
    return info(
      'PNG',
      'image/png',
      ok ? bytes.readUInt32BE(16) : null,
      ok ? bytes.readUInt32BE(20) : null
    )
  }
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) {
    const size = jpegSize(bytes)
    return info('JPEG', 'image/jpeg', size?.[0] ?? null, size?.[1] ?? null)
  }
  const head = bytes.toString('latin1', 0, 6)
  if (head === 'GIF87a' || head === 'GIF89a') {
    const ok = bytes.length >= 10
    return info(
      'GIF',
      'image/gif',
      ok ? bytes.readUInt16LE(6) : null,
      ok ? bytes.readUInt16LE(8) : null
    )
  }
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
    const size = webpSize(bytes)
    return info('WebP', 'image/webp', size?.[0] ?? null, size?.[1] ?? null)
  }
  return null
}

function info(
  format: string,
  mediaType: ImageInfo['mediaType'],
  width: number | null,
  height: number | null
): ImageInfo {
  return { format, mediaType, width, height }
}

function startsWith(bytes: Buffer, signature: readonly number[]): boolean {
  return bytes.length >= signature.length && signature.every((byte, i) => bytes[i] === byte)
}

/** Walks the JPEG segments to the first start-of-frame marker, which holds the size. */
function jpegSize(bytes: Buffer): [number, number] | null {
  let at = 2
  while (at + 9 <= bytes.length) {
    if (bytes[at] !== 0xff) return null
    const marker = bytes[at + 1] ?? 0
    // Fill bytes and markers without a length (RSTn, TEM) carry no segment.
    if (marker === 0xff) {
      at += 1
      continue
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2
      continue
    }
    // SOF0-SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)
    if (isFrame) return [bytes.readUInt16BE(at + 7), bytes.readUInt16BE(at + 5)]
    at += 2 + bytes.readUInt16BE(at + 2)
  }
  return null
}

/** Lossy (VP8), lossless (VP8L) and extended (VP8X) WebP each keep the size differently. */
function webpSize(bytes: Buffer): [number, number] | null {
  if (bytes.length < 30) return null
  const chunk = bytes.toString('latin1', 12, 16)
  if (chunk === 'VP8 ') {
    return [bytes.readUInt16LE(26) & 0x3fff, bytes.readUInt16LE(28) & 0x3fff]
  }
  if (chunk === 'VP8L') {
    const bits = bytes.readUInt32LE(21)
    return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1]
  }
  if (chunk === 'VP8X') {
    return [bytes.readUIntLE(24, 3) + 1, bytes.readUIntLE(27, 3) + 1]
  }
  return null
}
