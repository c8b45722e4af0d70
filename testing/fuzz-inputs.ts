// Malformed HTTP requests and WebSocket frames from a seeded generator, for the browser server's
// fuzz test: the same seed gives the same cases, so a failure can be replayed.
// Not shipped: only test files import it.
import { encodeFrame } from './raw-wire'

/** A small, fast, seedable PRNG (mulberry32): deterministic, unlike Math.random. */
export class SeededRandom {
  private state: number

  constructor(seed: number) {
    this.state = seed >>> 0
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(0, items.length - 1)]
    if (item === undefined) throw new Error('pick from an empty list')
    return item
  }

  bytes(length: number): Buffer {
    const out = Buffer.alloc(length)
    for (let i = 0; i < length; i++) out[i] = this.int(0, 255)
    return out
  }
}

const hex = '0123456789abcdefABCDEF'
const notHex = 'gzGZ%/.-_~ '

/** One piece of a hostile path: each kind is a way a decoder or a path jail has been fooled. */
function pathPiece(rng: SeededRandom): Buffer {
  switch (rng.int(0, 11)) {
    case 0:
      return Buffer.from('%')
    case 1:
      return Buffer.from(`%${rng.pick([...hex])}`)
    case 2:
      return Buffer.from(`%${rng.pick([...notHex])}${rng.pick([...hex])}`)
    case 3:
      // A lone or truncated UTF-8 sequence, percent-encoded.
      return Buffer.from(
        rng.pick(['%E0%A4%A', '%C0%AF', '%ED%A0%80', '%F8%88%80%80', '%FF', '%C3'])
      )
    case 4:
      return Buffer.from(rng.pick(['..', '%2e%2e', '%2E.', '.%2e', '%252e%252e', '..%2f', '..%5c']))
    case 5:
      return Buffer.from(rng.pick(['/', '//', '%2f', '%2F', '\\', '%5c', '%00', '%0a', '%0d%0a']))
    case 6:
      // Raw bytes above 0x7f: valid UTF-8, broken UTF-8, or an emoji.
      return rng.pick([
        Buffer.from('é漢字😀'),
        Buffer.from([0xc3]),
        Buffer.from([0xff, 0xfe]),
        Buffer.from([0xed, 0xa0, 0x80])
      ])
    case 7:
      return Buffer.from(rng.pick(['index.html', 'assets', 'secret.txt', '?', '#', ';', '@', ':']))
    case 8:
      return Buffer.from('%'.repeat(rng.int(2, 40)))
    case 9:
      return Buffer.from(`%u${rng.int(0, 0xffff).toString(16)}`)
    case 10:
      // Overlong: past Node's 16 KB header limit now and then.
      return Buffer.from('a'.repeat(rng.pick([100, 4000, 9000, 17000])))
    default:
      return rng.bytes(rng.int(1, 6))
  }
}

/** A request target for `GET <target> HTTP/1.1`: raw bytes, often not a URL at all. */
export function hostilePath(rng: SeededRandom): Buffer {
  const parts: Buffer[] = [Buffer.from(rng.int(0, 9) === 0 ? '' : '/')]
  const count = rng.int(1, 6)
  for (let i = 0; i < count; i++) parts.push(pathPiece(rng))
  if (rng.int(0, 14) === 0) parts.unshift(Buffer.from(rng.pick(['http://[', 'http://x', '*'])))
  return Buffer.concat(parts)
}

/** `GET <target>` to this server's own Host, so it passes the Host check and reaches the decoder. */
export function pathRequest(target: Buffer, port: number): Buffer {
  return Buffer.concat([
    Buffer.from('GET '),
    target,
    Buffer.from(` HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`)
  ])
}

/** A whole request with a broken request line, header, body or upgrade. */
export function hostileRequest(rng: SeededRandom, port: number, token: string): Buffer {
  const host = `Host: 127.0.0.1:${port}`
  const upgrade = [
    'Upgrade: websocket',
    'Connection: Upgrade',
    'Sec-WebSocket-Version: 13',
    `Origin: http://127.0.0.1:${port}`
  ]
  const key = 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=='
  const text = (lines: string[]): Buffer => Buffer.from(lines.join('\r\n'))
  switch (rng.int(0, 15)) {
    case 0:
      return text([
        `${rng.pick(['GE T', 'G\0T', 'get', 'PRI', 'BREW', '', 'DELETE'])} / HTTP/1.1`,
        host,
        '',
        ''
      ])
    case 1:
      return text([
        `GET / ${rng.pick(['HTTP/9.9', 'HTTP/1.1x', 'HTTP/', 'ICY', 'HTTP/1.1 extra'])}`,
        host,
        '',
        ''
      ])
    case 2:
      return text([
        'GET / HTTP/1.1',
        host,
        rng.pick(['NoColon', ': empty-name', 'Bad Name: x', 'X:\0nul', 'X: a\rb']),
        '',
        ''
      ])
    case 3:
      return text([
        'GET / HTTP/1.1',
        host,
        `X-Big: ${'b'.repeat(rng.pick([8000, 20000, 70000]))}`,
        '',
        ''
      ])
    case 4:
      return text([
        'GET / HTTP/1.1',
        host,
        ...Array.from({ length: rng.int(100, 3000) }, (_, i) => `X-${i}: y`),
        '',
        ''
      ])
    case 5:
      return text([
        'GET / HTTP/1.1',
        rng.pick([
          host + '\r\n' + host,
          'Host: evil.example',
          'Host:',
          'Host: 127.0.0.1:0',
          'Host: [::1'
        ]),
        '',
        ''
      ])
    case 6:
      return text([
        'POST / HTTP/1.1',
        host,
        `Content-Length: ${rng.pick(['-1', 'abc', '1, 2', '99999999999999999999', '5\r\nContent-Length: 6'])}`,
        '',
        'hello'
      ])
    case 7:
      return text([
        'POST / HTTP/1.1',
        host,
        `Transfer-Encoding: ${rng.pick(['chunked', 'gzip, chunked', 'nope', 'chunked\r\nContent-Length: 3'])}`,
        '',
        rng.pick(['zz\r\n', '5\r\nab', 'ffffffffffffffff\r\n', '0\r\n'])
      ])
    case 8:
      // Truncated: the server sees the end of the stream in the middle of a request.
      return text(['GET / HTTP/1.1', host].slice(0, rng.int(1, 2))).subarray(0, rng.int(1, 30))
    case 9:
      return rng.bytes(rng.int(1, 300))
    case 10:
      return text([
        'GET /rpc?token=' + encodeURIComponent(token) + ' HTTP/1.1',
        host,
        ...upgrade,
        rng.pick(['Sec-WebSocket-Key: short', 'Sec-WebSocket-Key:', '']),
        '',
        ''
      ])
    case 11:
      return text([
        `GET ${rng.pick(['http://[', '/rpc?token=%', '/rpc?token=%E0%A4%A', '//rpc'])} HTTP/1.1`,
        host,
        ...upgrade,
        key,
        '',
        ''
      ])
    case 12:
      return text([
        'GET /rpc?token=' + encodeURIComponent(token) + ' HTTP/1.1',
        host,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Version: ${rng.pick(['8', '', 'x'])}`,
        `Origin: http://127.0.0.1:${port}`,
        key,
        '',
        ''
      ])
    case 13:
      return text(['GET / HTTP/1.1', host, 'Expect: 100-continue', 'Content-Length: 4', '', ''])
    case 14:
      return text(['CONNECT 127.0.0.1:1 HTTP/1.1', host, '', ''])
    default:
      return Buffer.concat([text(['GET / HTTP/1.1', host, '', '']), rng.bytes(rng.int(1, 64))])
  }
}

/** A hostile frame sequence for an authenticated socket, with the close code it must earn. */
export interface FrameCase {
  bytes: Buffer
  /** The code the server must close with; null when it may keep the socket open. */
  closeWith: number | null
}

const bad = {
  utf8: [
    Buffer.from([0xc3, 0x28]),
    Buffer.from([0xed, 0xa0, 0x80]),
    Buffer.from([0xff]),
    Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80])
  ],
  json: [
    '{',
    '}',
    '{"kind":',
    'null',
    '1e999999',
    '"\\ud800"',
    '[]',
    '{"kind":"call","id":1.5}',
    '{"kind":"call","id":2,"method":"no.such","input":{}}',
    '{"kind":"call","id":3,"method":"tools.list","input":"x"}',
    '{"kind":"call","id":4,"method":"session.send","input":{"sessionId":""}}',
    '{"kind":"call","id":5,"method":"__proto__","input":{}}',
    '{"kind":"call","id":6,"method":"tools.list","input":{"__proto__":{"x":1}}}',
    '{"kind":"ready","extra":true}'
  ]
}

/** One hostile frame (or a few), drawn from the ways RFC 6455 says a frame can be wrong. */
export function hostileFrames(rng: SeededRandom): FrameCase {
  const junk = (): Buffer => rng.bytes(rng.int(0, 40))
  switch (rng.int(0, 12)) {
    case 0:
      return {
        bytes: encodeFrame({
          opcode: rng.pick([1, 2]),
          length: BigInt(rng.int(16 * 1024 * 1024 + 1, 2 ** 31))
        }),
        closeWith: 1009
      }
    case 1:
      return {
        bytes: encodeFrame({ opcode: 1, length: 2n ** BigInt(rng.int(54, 63)) }),
        closeWith: 1009
      }
    case 2:
      return {
        bytes: encodeFrame({
          opcode: 1,
          payload: Buffer.concat([Buffer.from('{"a":"'), rng.pick(bad.utf8), Buffer.from('"}')])
        }),
        closeWith: 1007
      }
    case 3:
      return {
        bytes: encodeFrame({ opcode: rng.pick([1, 2, 9]), payload: junk(), masked: false }),
        closeWith: 1002
      }
    case 4:
      return {
        bytes: encodeFrame({
          opcode: rng.pick([3, 4, 5, 6, 7, 11, 12, 13, 14, 15]),
          payload: junk()
        }),
        closeWith: 1002
      }
    case 5:
      return {
        bytes: encodeFrame({ opcode: 1, payload: Buffer.from('{}'), rsv: rng.int(1, 7) }),
        closeWith: 1002
      }
    case 6:
      // A control frame that is too long, or fragmented.
      return rng.int(0, 1) === 0
        ? {
            bytes: encodeFrame({ opcode: 9, payload: rng.bytes(rng.int(126, 300)) }),
            closeWith: 1002
          }
        : { bytes: encodeFrame({ opcode: 9, payload: junk(), fin: false }), closeWith: 1002 }
    case 7:
      // A continuation with nothing to continue.
      return { bytes: encodeFrame({ opcode: 0, payload: junk() }), closeWith: 1002 }
    case 8: {
      // Truncated: the header promises more than ever arrives, then the stream ends.
      const whole = encodeFrame({ opcode: 1, payload: rng.bytes(rng.int(10, 2000)) })
      return { bytes: whole.subarray(0, rng.int(1, whole.length - 1)), closeWith: null }
    }
    case 9:
      return {
        bytes: encodeFrame({ opcode: 1, payload: Buffer.from(rng.pick(bad.json)) }),
        closeWith: null
      }
    case 10:
      return { bytes: encodeFrame({ opcode: 2, payload: junk() }), closeWith: null }
    case 11:
      // A close frame with a code no one may send, or a one-byte body.
      return rng.int(0, 1) === 0
        ? {
            bytes: encodeFrame({ opcode: 8, payload: Buffer.from([rng.pick([0x03, 0x13]), 0xed]) }),
            closeWith: 1002
          }
        : { bytes: encodeFrame({ opcode: 8, payload: Buffer.from([0x03]) }), closeWith: 1002 }
    default:
      // A good frame split across a text frame and a continuation that breaks UTF-8 in the middle.
      return {
        bytes: Buffer.concat([
          encodeFrame({ opcode: 1, payload: Buffer.from('{"kind":"re'), fin: false }),
          encodeFrame({ opcode: 0, payload: Buffer.from([0xe2, 0x82]) })
        ]),
        closeWith: 1007
      }
  }
}
