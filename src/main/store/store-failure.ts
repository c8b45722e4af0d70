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
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return `cannot record this session: another process kept ${file} locked (${code}). Close the other Mecatl using ${dir}, ${again}.`
  }
  const message = error instanceof Error ? error.message : String(error)
  return `cannot record this session in ${file}: ${message}${code ? ` (${code})` : ''}. Check the disk holding ${dir}, ${again}.`
}
