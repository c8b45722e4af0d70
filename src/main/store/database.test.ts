import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migrate, openDatabase } from './database'
import { migrations, type Migration } from './migrations'
import { openStore, storePath } from './store'

let dir: string

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mecatl-db-'))
})
afterEach(async () => rm(dir, { recursive: true, force: true }))

function tables(db: Database.Database): string[] {
  return (
    db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger')").all() as {
      name: string
    }[]
  ).map((row) => row.name)
}

describe('openDatabase', () => {
  it('creates the file in a missing data directory and migrates it from empty', () => {
    const file = storePath(path.join(dir, 'not', 'yet'))
    const store = openDatabase(file)
    expect(store.version()).toBe(migrations.at(-1)?.version)
    expect(tables(store.db)).toEqual(
      expect.arrayContaining([
        'schema_migrations',
        'memory_owners',
        'memory_entries',
        'memory_revisions',
        'memory_fts',
        'memory_entries_ai'
      ])
    )
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(store.db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0)
    store.close()
  })

  it('applies each migration once: reopening keeps the data and records nothing twice', () => {
    const first = openStore(dir)
    first.memory.remember({ scope: 'user', project: '' }, 'editor', 'uses vim', 's1')
    first.close()
    const again = openStore(dir)
    expect(again.memory.get({ scope: 'user', project: '' }, 'editor')?.content).toBe('uses vim')
    const applied = again.database.db.prepare('SELECT version FROM schema_migrations').all()
    expect(applied).toHaveLength(migrations.length)
    again.close()
  })

  it('applies only the migrations a database lacks, in order, each with its record', () => {
    const file = path.join(dir, 'steps.db')
    const order: number[] = []
    const step = (version: number): Migration => ({
      version,
      name: `step ${version}`,
      up: (db) => {
        order.push(version)
        db.exec(`CREATE TABLE t${version} (x)`)
      }
    })
    const db = new Database(file)
    expect(migrate(db, [step(1)])).toEqual([1])
    expect(migrate(db, [step(2), step(1), step(3)])).toEqual([2, 3])
    expect(order).toEqual([1, 2, 3])
    db.close()
  })

  it('rolls a failing migration back whole, so the next start retries it', () => {
    const file = path.join(dir, 'failing.db')
    const db = new Database(file)
    const broken: Migration = {
      version: 1,
      name: 'broken',
      up: (d) => {
        d.exec('CREATE TABLE half (x)')
        d.exec('THIS IS NOT SQL')
      }
    }
    expect(() => migrate(db, [broken])).toThrow()
    expect(tables(db)).not.toContain('half')
    expect(db.prepare('SELECT count(*) AS n FROM schema_migrations').get()).toEqual({ n: 0 })
    db.close()
  })

  it('refuses a database from a newer build instead of guessing at its schema', () => {
    const file = path.join(dir, 'newer.db')
    openDatabase(file).close()
    const db = new Database(file)
    db.prepare('INSERT INTO schema_migrations VALUES (99, ?, 0)').run('from the future')
    db.close()
    expect(() => openDatabase(file)).toThrow(/schema version 99, newer than this build/)
  })

  it('says what is wrong with a file that is not a database', async () => {
    const file = path.join(dir, 'garbage.db')
    await writeFile(file, 'this is a text file, not SQLite\n'.repeat(100))
    expect(() => openDatabase(file)).toThrow(/not a database/)
  })
})
