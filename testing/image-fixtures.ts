/** Minimal but well-formed image headers, for tests: enough bytes for sniffing and sizes. */
export function pngBytes(width: number, height: number): Buffer {
  const header = Buffer.alloc(33)
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0)
  header.writeUInt32BE(13, 8)
  header.write('IHDR', 12, 'latin1')
  header.writeUInt32BE(width, 16)
  header.writeUInt32BE(height, 20)
  header.writeUInt8(8, 24)
  header.writeUInt8(6, 25)
  // IDAT/IEND are not needed to recognise the file or read its size.
  return Buffer.concat([header, Buffer.from('IEND', 'latin1')])
}

export function jpegBytes(width: number, height: number): Buffer {
  const app0 = Buffer.from([
    0xff,
    0xe0,
    0x00,
    0x10,
    ...Buffer.from('JFIF\0', 'latin1'),
    1,
    1,
    0,
    0,
    1,
    0,
    1,
    0,
    0
  ])
  const sof = Buffer.alloc(19)
  sof.writeUInt16BE(0xffc0, 0)
  sof.writeUInt16BE(17, 2)
  sof.writeUInt8(8, 4)
  sof.writeUInt16BE(height, 5)
  sof.writeUInt16BE(width, 7)
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])])
}

export function gifBytes(width: number, height: number): Buffer {
  const header = Buffer.alloc(13)
  header.write('GIF89a', 0, 'latin1')
  header.writeUInt16LE(width, 6)
  header.writeUInt16LE(height, 8)
  return Buffer.concat([header, Buffer.from([0x3b])])
}

export function webpBytes(kind: 'VP8 ' | 'VP8L' | 'VP8X', width: number, height: number): Buffer {
  const body = Buffer.alloc(30)
  body.write('RIFF', 0, 'latin1')
  body.writeUInt32LE(22, 4)
  body.write('WEBP', 8, 'latin1')
  body.write(kind, 12, 'latin1')
  if (kind === 'VP8 ') {
    body.writeUInt16LE(width, 26)
    body.writeUInt16LE(height, 28)
  } else if (kind === 'VP8L') {
    body.writeUInt8(0x2f, 20)
    body.writeUInt32LE((width - 1) | ((height - 1) << 14), 21)
  } else {
    body.writeUIntLE(width - 1, 24, 3)
    body.writeUIntLE(height - 1, 27, 3)
  }
  return body
}
