import { describe, expect, it } from 'vitest'
import { resolveToken, rpcSocketUrl, TOKEN_STORAGE_KEY } from './token'
import { backoffDelay } from './ws-bridge'

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  const map = new Map<string, string>()
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value)
  }
}

describe('token', () => {
  it('prefers the URL token and remembers it', () => {
    const storage = memoryStorage()
    expect(resolveToken('?token=abc', storage)).toBe('abc')
    expect(storage.getItem(TOKEN_STORAGE_KEY)).toBe('abc')
    expect(resolveToken('?folder=%2Fx', storage)).toBe('abc')
  })

  it('has no token when neither the URL nor storage has one', () => {
    expect(resolveToken('', memoryStorage())).toBeNull()
    expect(resolveToken('', null)).toBeNull()
  })

  it('builds the socket URL on the page host', () => {
    expect(rpcSocketUrl('127.0.0.1:4000', 'a b')).toBe('ws://127.0.0.1:4000/rpc?token=a%20b')
  })

  it('backs off up to five seconds', () => {
    expect(backoffDelay(1)).toBe(250)
    expect(backoffDelay(3)).toBe(1000)
    expect(backoffDelay(20)).toBe(5000)
  })
})
