// A raw HTTP/1.1 client over `net` on loopback that reads only when told: for tests that pipeline
// requests, stop reading a response, or trickle bytes, as no well-behaved client would.
// Not shipped: only test files import it.
import net from 'node:net'

/** Everything the server sent, and whether it was the one to close. */
export interface RawHttpAnswer {
  bytes: Buffer
  closedByServer: boolean
}

export interface RawHttpClient {
  /** Writes bytes as they are; ignored once the connection is gone. */
  write(bytes: Buffer | string): void
  /** Whether the connection is closed (as far as this side has heard). */
  readonly closed: boolean
  /**
   * Starts reading and resolves once the server closes, or after `boundMs` (a bound, not an
   * assertion: then `closedByServer` is false and the connection is destroyed).
   */
  read(boundMs: number): Promise<RawHttpAnswer>
  destroy(): void
}

/** Connects to 127.0.0.1:`port` without reading: bytes the server sends stay in the kernel. */
export function openRawHttp(port: number): Promise<RawHttpClient> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port })
    socket.pause()
    const chunks: Buffer[] = []
    let byServer = false
    let closed = false
    const waiters: Array<() => void> = []
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('end', () => {
      byServer = true
      socket.end()
    })
    socket.on('error', () => {
      // A reset is how a server drops a connection it will not serve: a close like any other.
      byServer = true
      socket.destroy()
    })
    socket.on('close', () => {
      closed = true
      for (const wake of waiters.splice(0)) wake()
    })
    socket.once('connect', () => {
      socket.off('error', reject)
      resolve({
        write: (bytes) => {
          if (!socket.destroyed) socket.write(bytes)
        },
        get closed() {
          return closed
        },
        read: (boundMs) =>
          new Promise((done) => {
            const finish = (): void => {
              clearTimeout(timer)
              done({ bytes: Buffer.concat(chunks), closedByServer: byServer })
            }
            const timer = setTimeout(() => socket.destroy(), boundMs)
            if (closed) finish()
            else waiters.push(finish)
            socket.resume()
          }),
        destroy: () => socket.destroy()
      })
    })
    socket.once('error', reject)
  })
}

/** The status codes of the responses in `bytes`, in order (bodies must not hold `HTTP/1.1 `). */
export function statuses(bytes: Buffer): number[] {
  return [...bytes.toString('latin1').matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]))
}

/** A GET as a browser would send it to `port`, `Connection` left to the server. */
export function rawGet(port: number, target: string): string {
  return `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`
}
