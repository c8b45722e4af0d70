import { describe, expect, it } from 'vitest'
import { ByteRing } from './ring-buffer'

const bytes = (text: string): Buffer => Buffer.from(text)

describe('ByteRing', () => {
  it('keeps everything while it fits', () => {
    const ring = new ByteRing(16)
    ring.push(bytes('hello '))
    ring.push(bytes('world'))
    expect(ring.tail().toString()).toBe('hello world')
    expect(ring.droppedBytes).toBe(0)
    expect(ring.totalBytes).toBe(11)
  })

  it('keeps the tail and counts what it dropped', () => {
    const ring = new ByteRing(10)
    for (let i = 0; i < 7; i++) ring.push(bytes(`line${i}\n`))
    expect(ring.totalBytes).toBe(42)
    expect(ring.length).toBe(10)
    expect(ring.droppedBytes).toBe(32)
    expect(ring.tail().toString()).toBe('ne5\nline6\n')
  })

  it('wraps a chunk around the end of its buffer in order', () => {
    const ring = new ByteRing(8)
    ring.push(bytes('abcdef'))
    ring.push(bytes('ghij'))
    expect(ring.tail().toString()).toBe('cdefghij')
    ring.push(bytes('kl'))
    expect(ring.tail().toString()).toBe('efghijkl')
    expect(ring.tail(3).toString()).toBe('jkl')
  })

  it('takes only the end of a chunk larger than itself', () => {
    const ring = new ByteRing(4)
    ring.push(bytes('ab'))
    ring.push(bytes('0123456789'))
    expect(ring.tail().toString()).toBe('6789')
    expect(ring.droppedBytes).toBe(8)
  })

  it('stays bounded whatever is pushed through it', () => {
    const ring = new ByteRing(1024)
    const chunk = Buffer.alloc(700, 'x')
    for (let i = 0; i < 10_000; i++) ring.push(chunk)
    expect(ring.length).toBe(1024)
    expect(ring.totalBytes).toBe(7_000_000)
    expect(ring.droppedBytes).toBe(7_000_000 - 1024)
  })

  it('matches a plain concatenation for any mix of chunk sizes', () => {
    const ring = new ByteRing(97)
    let all = ''
    for (let i = 0; i < 500; i++) {
      const piece = String(i).repeat((i * 7) % 40)
      all += piece
      ring.push(bytes(piece))
      expect(ring.tail().toString()).toBe(all.slice(-97))
    }
  })

  it('lets its memory go on release and counts the rest as dropped', () => {
    const ring = new ByteRing(8)
    ring.push(bytes('abc'))
    ring.release()
    expect(ring.length).toBe(0)
    expect(ring.droppedBytes).toBe(3)
    expect(ring.tail().length).toBe(0)
  })
})
