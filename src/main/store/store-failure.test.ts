// Each way SQLite refuses a write, produced for real on a real file, reads as a sentence that
// names the data directory and says what to do.
import { mkdirSync } from 'node:fs'
import { mkdtemp, realpath, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { describeStoreFailure } from './store-failure'

let dir: string

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-store-failure-')))
})
afterEach(async () => rm(dir, { recursive: true, force: true }))

function failureOf(write: () => void): unknown {
  try {
    write()
  } catch (error) {
    return error
  }
  throw new Error('the write did not fail')
}

describe('describeStoreFailure', () => {
  it('says the disk is full for SQLITE_FULL', () => {
    const file = path.join(dir, 'mecatl.db')
    const db = new Database(file)
    db.exec('CREATE TABLE t (x TEXT)')
    db.pragma(`max_page_count = ${String(db.pragma('page_count', { simple: true }))}`)
    const error = failureOf(() => {
      for (let i = 0; i < 100; i++) db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(4000))
    })
    db.close()
    expect(describeStoreFailure(error, file)).toBe(
      `cannot record this session: the disk holding ${dir} is full. Free some space there, then send your message again.`
    )
  })

  it('says which file cannot be written for SQLITE_READONLY', () => {
    const file = path.join(dir, 'mecatl.db')
    const db = new Database(file)
    db.exec('CREATE TABLE t (x TEXT)')
    db.pragma('query_only = ON')
    const error = failureOf(() => db.prepare('INSERT INTO t VALUES (1)').run())
    db.close()
    expect(describeStoreFailure(error, file)).toBe(
      `cannot record this session: ${file} cannot be written (SQLITE_READONLY). Make ${dir} writable (check its permissions, and that its disk is not mounted read-only), then send your message again.`
    )
  })

  it('says the file cannot be opened for SQLITE_CANTOPEN', () => {
    // A folder where the database file should be: SQLite cannot open it as one.
    const file = path.join(dir, 'mecatl.db')
    mkdirSync(file)
    const error = failureOf(() => new Database(file).exec('CREATE TABLE t (x TEXT)'))
    expect(describeStoreFailure(error, file)).toBe(
      `cannot record this session: ${file} cannot be opened (SQLITE_CANTOPEN). Check that ${dir} exists and can be written, then send your message again.`
    )
  })

  it('names the other process for SQLITE_BUSY', () => {
    const file = path.join(dir, 'mecatl.db')
    const holder = new Database(file)
    holder.pragma('journal_mode = WAL')
    holder.exec('CREATE TABLE t (x TEXT)')
    const waiter = new Database(file, { timeout: 0 })
    holder.exec('BEGIN IMMEDIATE')
    const error = failureOf(() => waiter.prepare('INSERT INTO t VALUES (1)').run())
    holder.exec('ROLLBACK')
    waiter.close()
    holder.close()
    expect(describeStoreFailure(error, file)).toBe(
      `cannot record this session: another process kept ${file} locked (SQLITE_BUSY). Close the other Mecatl using ${dir}, then send your message again.`
    )
  })
})
