import { randomBytes } from 'node:crypto'
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
  truncate,
  writeFile
} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeFifo } from '../../../testing/fifo'
import { openDatabase } from './database'
import { openStore, storePath } from './store'
import { StoreUnusableError } from './store-failure'

// openDatabase refuses a file it cannot use before SQLite writes a byte to it.
let dir: string
let file: string

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-db-damaged-')))
  file = storePath(dir)
})
afterEach(async () => rm(dir, { recursive: true, force: true }))

async function unchangedAfter(open: () => unknown): Promise<StoreUnusableError> {
  const before = { bytes: await readFile(file), mtime: (await stat(file)).mtimeMs }
  const listing = await readdir(dir)
  let caught: unknown = null
  try {
    open()
  } catch (error) {
    caught = error
  }
  expect(caught).toBeInstanceOf(StoreUnusableError)
  expect(await readFile(file)).toEqual(before.bytes)
  expect((await stat(file)).mtimeMs).toBe(before.mtime)
  // Not even a -wal or -shm file beside it.
  expect(await readdir(dir)).toEqual(listing)
  return caught as StoreUnusableError
}

describe('openDatabase on a file it cannot use', () => {
  it('random bytes: not a SQLite database', async () => {
    await writeFile(file, randomBytes(8192))
    const error = await unchangedAfter(() => openDatabase(file))
    expect(error.message).toBe(
      `the database ${file} is damaged: it is not a database, as it does not begin as a SQLite file does, so nothing ran and the file was left as it is; move it away to start with an empty one (what it held stays in the moved file), or put back a backup of it.`
    )
  })

  it('a database cut in half: cut short, by how much', async () => {
    openStore(dir).close()
    await truncate(file, Math.floor((await stat(file)).size / 2))
    const error = await unchangedAfter(() => openDatabase(file))
    expect(error.message).toMatch(
      /is cut short \(its header counts [\d,]+ bytes, the file holds [\d,]+\)/
    )
  })

  it('a database whose only damage is inside: what SQLite says, nothing written', async () => {
    openStore(dir).close()
    const bytes = await readFile(file)
    // Everything past the first page (the schema) overwritten with noise, the length kept.
    const pageSize = bytes.readUInt16BE(16)
    randomBytes(bytes.length - pageSize).copy(bytes, pageSize)
    await writeFile(file, bytes)
    const error = await unchangedAfter(() => openDatabase(file))
    expect(error.message).toMatch(/is damaged \(SQLite: .+\)|is not a database/)
  })

  it('a FIFO is refused without waiting on it', async () => {
    makeFifo(file)
    expect(() => openDatabase(file)).toThrow(/is not a regular file, so nothing ran/)
  })

  it('a folder says so', async () => {
    await mkdir(file)
    expect(() => openDatabase(file)).toThrow(
      `the database ${file} is a folder, not a database file, so nothing ran`
    )
  })

  it('an empty file is a new database, and a valid one opens as before', async () => {
    await writeFile(file, '')
    openDatabase(file).close()
    const again = openDatabase(file)
    expect(again.version()).toBeGreaterThan(0)
    again.close()
  })
})
