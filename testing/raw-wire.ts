// Raw HTTP and WebSocket bytes over `net` on loopback, for tests that send what no well-behaved
// client library would (bad request lines, unmasked frames, lying lengths).
// Not shipped: only test files import it.
import { randomBytes } from 'node:crypto'
import net from 'node:net'

/** Every byte a server sent on one connection, until it closed (or the bound ran out). */
export interface RawExchange {
  bytes: Buffer
  /** The status code of the first response line, or null when none came. */
  status: number | null
  /** True when the server closed the connection; false when the bound ended it. */
  closedByServer: boolean
}

/** How long a raw exchange may hang before the test gives up on it: a bound, not an assertion. */
const BOUND_MS = 5000

function statusOf(bytes: Buffer): number | null {
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(bytes.subarray(0, 16).toString('latin1'))
  return match ? Number(match[1]) : null
}

/**
 * Sends `request` as it is and collects everything the server answers until it closes. With
 * `halfClose` our side ends at once, so a request cut short meets the end of the stream (Node
 * then drops any answer still being made); without it, `request` must ask for `Connection: close`.
 */
export function rawExchange(
  port: number,
  request: Buffer | string,
  options: { halfClose?: boolean } = {}
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    const socket = net.connect({ host: '127.0.0.1', port })
    let byServer = false
    const timer = setTimeout(() => socket.destroy(), BOUND_MS)
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('end', () => {
      byServer = true
      socket.end()
    })
    socket.on('error', () => socket.destroy())
    socket.on('close', () => {
      clearTimeout(timer)
      const bytes = Buffer.concat(chunks)
      resolve({ bytes, status: statusOf(bytes), closedByServer: byServer })
    })
    if (options.halfClose) socket.end(request)
    else socket.write(request)
  })
}

/** One WebSocket frame as a client might write it, with every field open to lying. */
export interface FrameSpec {
  opcode: number
  payload?: Buffer
  fin?: boolean
  /** The three reserved bits, 0..7. */
  rsv?: number
  /** Clients must mask; false sends the payload bare. */
  masked?: boolean
  /** Claims this length instead of the payload's own (may exceed 2^32). */
  length?: bigint
}

/** Encodes a frame per RFC 6455 section 5.2, honouring whatever lies `spec` tells. */
export function encodeFrame(spec: FrameSpec): Buffer {
  const payload = spec.payload ?? Buffer.alloc(0)
  const length = spec.length ?? BigInt(payload.length)
  const masked = spec.masked ?? true
  const first = ((spec.fin ?? true) ? 0x80 : 0) | (((spec.rsv ?? 0) & 7) << 4) | (spec.opcode & 15)
  let head: Buffer
  if (length < 126n) {
    head = Buffer.from([first, Number(length)])
  } else if (length < 65536n) {
    head = Buffer.alloc(4)
    head[0] = first
    head[1] = 126
    head.writeUInt16BE(Number(length), 2)
  } else {
    head = Buffer.alloc(10)
    head[0] = first
    head[1] = 127
    head.writeBigUInt64BE(length, 2)
  }
  if (!masked) return Buffer.concat([head, payload])
  head[1] = (head[1] ?? 0) | 0x80
  const key = randomBytes(4)
  const body = Buffer.from(payload)
  for (let i = 0; i < body.length; i++) body[i] = (body[i] ?? 0) ^ (key[i % 4] ?? 0)
  return Buffer.concat([head, key, body])
}

/** A frame the server sent, decoded (servers never mask). */
export interface ServerFrameBytes {
  opcode: number
  payload: Buffer
}

/** Splits server-to-client bytes into frames; a truncated tail is dropped. */
export function decodeFrames(bytes: Buffer): ServerFrameBytes[] {
  const frames: ServerFrameBytes[] = []
  let at = 0
  while (at + 2 <= bytes.length) {
    const opcode = (bytes[at] ?? 0) & 15
    let length = (bytes[at + 1] ?? 0) & 127
    let start = at + 2
    if (length === 126) {
      if (start + 2 > bytes.length) break
      length = bytes.readUInt16BE(start)
      start += 2
    } else if (length === 127) {
      if (start + 8 > bytes.length) break
      length = Number(bytes.readBigUInt64BE(start))
      start += 8
    }
    if (start + length > bytes.length) break
    frames.push({ opcode, payload: bytes.subarray(start, start + length) })
    at = start + length
  }
  return frames
}

/** The code of the first close frame in `frames`, or null when the server sent none. */
export function closeCode(frames: ServerFrameBytes[]): number | null {
  const close = frames.find((frame) => frame.opcode === 8)
  return close && close.payload.length >= 2 ? close.payload.readUInt16BE(0) : null
}

/** An upgraded WebSocket connection driven byte by byte. */
export interface RawSocket {
  /** Writes bytes as they are. */
  write(bytes: Buffer): void
  /** Half-closes our side and resolves with every frame the server sent until it closed. */
  finish(): Promise<ServerFrameBytes[]>
  /** Resolves with the frames so far once the server has closed the connection (bounded). */
  closed(): Promise<ServerFrameBytes[]>
}

/**
 * Opens `/rpc?token=` with a hand-written handshake (right Host and Origin), and resolves once
 * the server answered 101; rejects with the status line otherwise.
 */
export function openRawSocket(port: number, token: string): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port })
    const host = `127.0.0.1:${port}`
    let buffered = Buffer.alloc(0)
    let upgraded = false
    const after: Buffer[] = []
    let ended = false
    const waiters: Array<() => void> = []
    const timer = setTimeout(() => socket.destroy(), BOUND_MS)
    const frames = (): ServerFrameBytes[] => decodeFrames(Buffer.concat(after))
    const done = (): void => {
      ended = true
      clearTimeout(timer)
      for (const wake of waiters.splice(0)) wake()
    }
    const closed = (): Promise<ServerFrameBytes[]> =>
      ended ? Promise.resolve(frames()) : new Promise((wake) => waiters.push(() => wake(frames())))
    socket.on('data', (chunk) => {
      if (upgraded) {
        after.push(chunk)
        return
      }
      buffered = Buffer.concat([buffered, chunk])
      const end = buffered.indexOf('\r\n\r\n')
      if (end === -1) return
      const head = buffered.subarray(0, end).toString('latin1')
      if (!head.startsWith('HTTP/1.1 101')) {
        reject(new Error(`upgrade refused: ${head.split('\r\n')[0] ?? ''}`))
        socket.destroy()
        return
      }
      upgraded = true
      after.push(buffered.subarray(end + 4))
      resolve({
        write: (bytes) => {
          if (!socket.destroyed) socket.write(bytes)
        },
        finish: () => {
          if (!socket.destroyed) socket.end()
          return closed()
        },
        closed
      })
    })
    socket.on('end', () => socket.end())
    socket.on('error', () => socket.destroy())
    socket.on('close', () => {
      done()
      if (!upgraded) reject(new Error('the connection closed before the upgrade'))
    })
    socket.write(
      [
        `GET /rpc?token=${encodeURIComponent(token)} HTTP/1.1`,
        `Host: ${host}`,
        `Origin: http://${host}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        '',
        ''
      ].join('\r\n')
    )
  })
}
