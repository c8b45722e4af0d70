import path from 'node:path'

/** A write to the store that failed, said as a sentence a person can act on. */
export class RecordingError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause })
    this.name = 'RecordingError'
  }
}

/**
 * Why a session could not be recorded in the database `file`, from SQLite's error code: a full
 * disk, a file or folder that cannot be written, a failing disk, a file that cannot be opened,
 * or another process holding the lock. Each says what to do before sending again.
 */
export function describeStoreFailure(error: unknown, file: string): string {
  const dir = path.dirname(file)
  const code = String((error as { code?: unknown } | null)?.code ?? '')
  const again = 'then send your message again'
  if (code === 'SQLITE_FULL') {
    return `cannot record this session: the disk holding ${dir} is full. Free some space there, ${again}.`
  }
  if (code === 'SQLITE_READONLY_DBMOVED') {
    return `cannot record this session: ${file} was moved or deleted while Mecatl had it open. Restart Mecatl, ${again}.`
  }
  if (code.startsWith('SQLITE_READONLY')) {
    return `cannot record this session: ${file} cannot be written (${code}). Make ${dir} writable (check its permissions, and that its disk is not mounted read-only), ${again}.`
  }
  if (code.startsWith('SQLITE_IOERR')) {
    return `cannot record this session: the disk holding ${dir} failed a write (${code}): it may be full, over a size limit, or failing. Check it, ${again}.`
  }
  if (code.startsWith('SQLITE_CANTOPEN')) {
    return `cannot record this session: ${file} cannot be opened (${code}). Check that ${dir} exists and can be written, ${again}.`
  }
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return `cannot record this session: ${file} is damaged (${code}), so nothing more is written to it. Move it away to start with an empty one (what it held stays in the moved file), or put back a backup of it, ${again}.`
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return `cannot record this session: another process kept ${file} locked (${code}). Close the other Mecatl using ${dir}, ${again}.`
  }
  const message = error instanceof Error ? error.message : String(error)
  return `cannot record this session in ${file}: ${message}${code ? ` (${code})` : ''}. Check the disk holding ${dir}, ${again}.`
}

/**
 * The database cannot be used at all (damaged, not a file, not this user's to open, or from a
 * newer Mecatl): said as one sentence that names the file and what to do. Thrown before
 * anything is written to it, so the file stays as it was for a backup or a repair.
 */
export class StoreUnusableError extends Error {
  constructor(
    readonly file: string,
    what: string,
    todo: string,
    options?: { cause?: unknown }
  ) {
    super(
      `the database ${file} ${what}, so nothing ran and the file was left as it is; ${todo}.`,
      options
    )
    this.name = 'StoreUnusableError'
  }
}

const MOVE_AWAY =
  'move it away to start with an empty one (what it held stays in the moved file), or put back a backup of it'

/** A database file that is damaged: `what` says how, as the rest of "the database F …". */
export function damagedStore(file: string, what: string, cause?: unknown): StoreUnusableError {
  return new StoreUnusableError(file, what, MOVE_AWAY, { cause })
}

/**
 * The SQLite error of opening (or reading) `file` as a StoreUnusableError when it says the file
 * cannot be used at all; null for any other error (a busy lock, a full disk: see
 * describeStoreFailure).
 */
export function unusableStore(error: unknown, file: string): StoreUnusableError | null {
  if (error instanceof StoreUnusableError) return error
  const code = String((error as { code?: unknown } | null)?.code ?? '')
  const message = error instanceof Error ? error.message : String(error)
  if (code === 'SQLITE_NOTADB') {
    return damagedStore(file, 'is damaged: SQLite says it is not a database', error)
  }
  if (code.startsWith('SQLITE_CORRUPT')) {
    return damagedStore(file, `is damaged (SQLite: ${message})`, error)
  }
  if (code.startsWith('SQLITE_CANTOPEN') || code === 'SQLITE_PERM' || code === 'SQLITE_AUTH') {
    return storeAccessError(file, code, error)
  }
  return null
}

/** `file` (or its folder) cannot be opened, read or written by this user. */
export function storeAccessError(file: string, code: string, cause?: unknown): StoreUnusableError {
  return new StoreUnusableError(
    file,
    `cannot be opened by this user (${code})`,
    `give your user read and write access to it and to ${path.dirname(file)}, or point MECATL_HOME at a data folder of your own`,
    { cause }
  )
}
