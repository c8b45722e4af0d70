import path from 'node:path'
import { openDatabase, type StoreDatabase } from './database'
import { MemoryStore } from './memory-store'
import { SessionStore } from './session-store'

/** The data directory's SQLite store: one connection, shared by everything the core owns. */
export interface Store {
  readonly database: StoreDatabase
  readonly memory: MemoryStore
  /** Sessions and their recorded events. */
  readonly sessions: SessionStore
  close(): void
}

/** The database file every process of one data directory (window, CLI) shares. */
export function storePath(dataDir: string): string {
  return path.join(dataDir, 'mecatl.db')
}

/** Opens `<dataDir>/mecatl.db`, migrating it first when this build knows a newer schema. */
export function openStore(dataDir: string): Store {
  const database = openDatabase(storePath(dataDir))
  return {
    database,
    memory: new MemoryStore(database),
    sessions: new SessionStore(database),
    close: () => database.close()
  }
}
