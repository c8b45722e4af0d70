import { accessSync, closeSync, constants, mkdirSync, openSync, readSync, statSync } from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { migrations as allMigrations, type Migration } from './migrations'
import { damagedStore, storeAccessError, StoreUnusableError, unusableStore } from './store-failure'

/** How long a statement waits for another process (the CLI beside the app) to let go. */
const BUSY_TIMEOUT_MS = 5_000
const MMAP_BYTES = 256 * 1024 * 1024
const CACHE_KIB = 32 * 1024

/**
 * The one SQLite database of a data directory, opened with its schema up to date. Statements are
 * prepared once and reused: `prepare` caches them by their SQL text.
 */
export class StoreDatabase {
  readonly db: Database.Database
  private readonly statements = new Map<string, Database.Statement<unknown[]>>()

  constructor(db: Database.Database) {
    this.db = db
  }

  prepare<Params extends unknown[] = unknown[], Row = unknown>(
    sql: string
  ): Database.Statement<Params, Row> {
    let statement = this.statements.get(sql)
    if (!statement) {
      statement = this.db.prepare(sql)
      this.statements.set(sql, statement)
    }
    return statement as unknown as Database.Statement<Params, Row>
  }

  /**
   * Runs `fn` in a write transaction taken at its start (BEGIN IMMEDIATE), so two processes
   * changing the same rows queue on the busy timeout instead of failing halfway.
   */
  write<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate()
  }

  /** A number that changes whenever another connection (another process) commits a change. */
  dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number
  }

  /** Runs several reads in one transaction: they see the file as it stood at the first. */
  read<T>(fn: () => T): T {
    return this.db.transaction(fn).deferred()
  }

  /** The schema version: the highest migration applied. */
  version(): number {
    const row = this.prepare<[], { version: number | null }>(
      'SELECT max(version) AS version FROM schema_migrations'
    ).get()
    return row?.version ?? 0
  }

  close(): void {
    this.statements.clear()
    if (this.db.open) this.db.close()
  }
}

/**
 * Opens (creating if need be) `<dataDir>/mecatl.db`: WAL, foreign keys on, migrated. A file
 * that cannot be used (damaged, a folder, not this user's, from a newer Mecatl) is a
 * StoreUnusableError, found before anything is written to it.
 */
export function openDatabase(
  file: string,
  migrations: readonly Migration[] = allMigrations
): StoreDatabase {
  mkdirSync(path.dirname(file), { recursive: true })
  checkDatabaseFile(file)
  let db: Database.Database
  try {
    db = new Database(file, { timeout: BUSY_TIMEOUT_MS })
  } catch (error) {
    throw unusableStore(error, file) ?? error
  }
  try {
    // Reads the header and the schema, so a damaged file is found before the pragmas below
    // write to it.
    db.prepare('SELECT count(*) FROM sqlite_master').get()
    // WAL lets the window read while the CLI writes, and a crash never tears a committed write.
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    // Searches read index pages all over the file: map it, and keep more of it cached, rather
    // than copy each page in with a system call (SQLite's default cache is 2 MB).
    db.pragma(`mmap_size = ${MMAP_BYTES}`)
    db.pragma(`cache_size = -${CACHE_KIB}`)
    if (migrate(db, migrations).length > 0) compactIfMostlyFree(db)
  } catch (error) {
    db.close()
    throw unusableStore(error, file) ?? error
  }
  return new StoreDatabase(db)
}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1')
const HEADER_BYTES = 100

/**
 * What can be told of `file` without opening it with SQLite (which would write to a damaged
 * file's header before noticing): that it is a regular file this user may read and write, that
 * it starts as an SQLite database does, and that it is as long as its header says. Nothing
 * there, or an empty file, is a new database. Throws a StoreUnusableError.
 */
function checkDatabaseFile(file: string): void {
  let size: number
  try {
    const stats = statSync(file)
    if (stats.isDirectory()) {
      throw new StoreUnusableError(
        file,
        'is a folder, not a database file',
        'move the folder away (Mecatl then starts an empty database), or put back a backup of the database there'
      )
    }
    if (!stats.isFile()) throw damagedStore(file, 'is not a regular file')
    accessSync(file, constants.R_OK | constants.W_OK)
    size = stats.size
  } catch (error) {
    if (error instanceof StoreUnusableError) throw error
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error'
    if (code === 'ENOENT') return
    throw storeAccessError(file, code, error)
  }
  if (size === 0) return
  const header = Buffer.alloc(HEADER_BYTES)
  const fd = openSync(file, 'r')
  let read: number
  try {
    read = readSync(fd, header, 0, HEADER_BYTES, 0)
  } finally {
    closeSync(fd)
  }
  if (read < HEADER_BYTES || !header.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) {
    throw damagedStore(
      file,
      'is damaged: it is not a database, as it does not begin as a SQLite file does'
    )
  }
  const rawPageSize = header.readUInt16BE(16)
  const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize
  if (pageSize < 512 || pageSize > 65_536 || (pageSize & (pageSize - 1)) !== 0) {
    throw damagedStore(file, `has a damaged header (a page size of ${rawPageSize})`)
  }
  // The page count in the header is kept only when the change counter and the number it is
  // valid for agree. Pages still in the write-ahead log are not in the file yet: with a log
  // beside it, a shorter file is not proof of damage.
  const pages = header.readUInt32BE(28)
  const counted = header.readUInt32BE(24) === header.readUInt32BE(92)
  const expected = pages * pageSize
  if (counted && pages > 0 && expected > size && walSize(file) === 0) {
    throw damagedStore(
      file,
      `is cut short (its header counts ${expected.toLocaleString('en-US')} bytes, the file holds ${size.toLocaleString('en-US')})`
    )
  }
}

function walSize(file: string): number {
  try {
    return statSync(`${file}-wal`).size
  } catch {
    return 0
  }
}

/**
 * Gives the disk back once a migration has freed most of the file (the linear session log
 * folds away what version 2 kept of every partial save, often nearly all of it). SQLite reuses
 * free pages but never returns them by itself. Compacting is only a saving: when it cannot run
 * (no room for its temporary copy, another process reading) the database works as it is.
 */
function compactIfMostlyFree(db: Database.Database): void {
  const free = db.pragma('freelist_count', { simple: true }) as number
  const pages = db.pragma('page_count', { simple: true }) as number
  if (free * 2 <= pages) return
  try {
    db.exec('VACUUM')
    // In WAL mode the compacted file is in the log until a checkpoint writes it back.
    db.pragma('wal_checkpoint(TRUNCATE)')
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    console.warn(
      `${db.name} could not be compacted after its upgrade (${reason}); it works as it is.`
    )
  }
}

/** Applies the migrations not yet applied, each in its own transaction with its record. */
export function migrate(db: Database.Database, migrations: readonly Migration[]): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  )`)
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map(
      (row) => row.version
    )
  )
  const known = new Set(migrations.map((m) => m.version))
  const unknown = [...applied].filter((v) => !known.has(v))
  if (unknown.length > 0) {
    throw new StoreUnusableError(
      db.name,
      `has schema version ${Math.max(...unknown)}, newer than this build of Mecatl knows (${Math.max(0, ...known)})`,
      'update Mecatl, or point MECATL_HOME elsewhere'
    )
  }
  const record = db.prepare(
    'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)'
  )
  const ran: number[] = []
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(migration.version)) continue
    db.transaction(() => {
      migration.up(db)
      record.run(migration.version, migration.name, Date.now())
    }).immediate()
    ran.push(migration.version)
  }
  return ran
}
