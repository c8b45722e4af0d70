import os from 'node:os'
import {
  reapAfterMs,
  temporaryStorageDefaults,
  type TemporaryStorageSettings
} from '../../shared/temporary-storage'
import { JobTempDirs, type TempLease } from './temp-dirs'
import { reapPass, type ReapOptions, type ReapReport } from './temp-reaper'

/** How often the reaper looks (and this process shows it is alive): five minutes. */
export const REAP_EVERY_MS = 5 * 60_000
/** The first look after start, soon but not in the way of starting up. */
const FIRST_REAP_MS = 5_000

export interface TempStorageOptions {
  /** Where the managed roots go (default: the system's temp folder). */
  base?: string
  /** The TMPDIR of commands in system mode (default: the system's temp folder). */
  systemTempDir?: string
  /** `temporary_storage` as it stands now, read at each command and each pass. */
  settings?: () => TemporaryStorageSettings
  /** false: no background passes (tests run `reapNow` themselves). */
  background?: boolean
}

/** Where one command keeps its temporary files, and how they go when it ends. */
export interface CommandTemp {
  /** The command's TMPDIR. */
  tmp: string
  /** Its lease, or null when it uses the system temp directory. */
  lease: TempLease | null
  /** The command ended: removes its own directory (nothing for the system's). */
  release(): Promise<void>
}

/**
 * Temporary storage for shell commands. Managed (the default): every command its own leased
 * directory (temp-dirs.ts), and a background reaper that now and then reclaims the leases
 * their owners abandoned (temp-reaper.ts): one bounded pass at a time, on its own timer, so a
 * command never waits for it. System: the system temp directory, no lease, no reaping; what
 * managed storage holds is left as it is.
 */
export class TempStorage {
  readonly dirs: JobTempDirs
  private readonly settings: () => TemporaryStorageSettings
  private readonly systemTempDir: string
  private timer: NodeJS.Timeout | null = null
  private running: Promise<ReapReport | null> | null = null
  private readonly stop = new AbortController()

  constructor(options: TempStorageOptions = {}) {
    this.dirs = new JobTempDirs(options.base)
    this.settings = options.settings ?? (() => temporaryStorageDefaults)
    this.systemTempDir = options.systemTempDir ?? os.tmpdir()
    if (options.background !== false) this.schedule(FIRST_REAP_MS)
  }

  /** The TMPDIR of command `jobId`; `scope: 'system'` (a call's temp_scope) asks for the system's. */
  async allocate(jobId: string, scope?: 'system'): Promise<CommandTemp> {
    if (scope === 'system' || this.settings().mode === 'system') {
      return { tmp: this.systemTempDir, lease: null, release: async () => undefined }
    }
    const lease = await this.dirs.create(jobId)
    return { tmp: lease.tmp, lease, release: () => this.dirs.remove(lease) }
  }

  /**
   * One reaper pass now (none in system mode; the running one when one runs). This process's
   * sign of life comes first, in every mode: its own leases must not look abandoned to others.
   */
  reapNow(overrides: Partial<ReapOptions> = {}): Promise<ReapReport | null> {
    this.running ??= (async () => {
      await this.dirs.heartbeat()
      const settings = this.settings()
      if (settings.mode === 'system' || this.stop.signal.aborted) return null
      return reapPass({
        base: this.dirs.base,
        reapAfterMs: reapAfterMs(settings),
        self: await this.dirs.identity,
        held: this.dirs.held(),
        signal: this.stop.signal,
        ...overrides
      })
    })().finally(() => {
      this.running = null
    })
    return this.running
  }

  /** Stops the reaper (a pass in flight stops at its next step), then removes what is held. */
  async dispose(): Promise<void> {
    this.stop.abort()
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    await this.running?.catch(() => undefined)
    await this.dirs.dispose()
  }

  private schedule(ms: number): void {
    if (this.stop.signal.aborted) return
    this.timer = setTimeout(() => {
      void this.reapNow()
        .catch(() => undefined)
        .finally(() => this.schedule(REAP_EVERY_MS))
    }, ms)
    // The reaper never keeps a process alive that has nothing else to do.
    this.timer.unref()
  }
}
