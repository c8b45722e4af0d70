import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { compileCacheFolder } from './compile-cache'

let base: string
beforeEach(() => {
  base = mkdtempSync(path.join(os.tmpdir(), 'mecatl-compile-cache-test-'))
})
afterEach(() => rmSync(base, { recursive: true, force: true }))

const mine = (): string => path.join(base, `mecatl-compile-cache-${process.getuid?.() ?? 'user'}`)

describe('the compile cache folder', () => {
  it('is a folder of this user that nobody else may write, made on first use', () => {
    expect(compileCacheFolder(base)).toBe(mine())
    expect(statSync(mine()).mode & 0o777).toBe(0o700)
    expect(compileCacheFolder(base)).toBe(mine())
  })

  it('is not used when others may write to the one there', () => {
    mkdirSync(mine())
    chmodSync(mine(), 0o777)
    expect(compileCacheFolder(base)).toBeNull()
  })

  it('is not used when a link stands at its name', () => {
    const elsewhere = path.join(base, 'elsewhere')
    mkdirSync(elsewhere, { mode: 0o700 })
    symlinkSync(elsewhere, mine())
    expect(compileCacheFolder(base)).toBeNull()
  })

  it.runIf(process.getuid?.() === 0)('is not used when another user made it first', () => {
    mkdirSync(mine(), { mode: 0o700 })
    chownSync(mine(), 65534, 65534)
    expect(compileCacheFolder(base)).toBeNull()
  })
})
