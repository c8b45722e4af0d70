import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, realpath, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  temporaryStorageDefaults,
  type TemporaryStorageSettings
} from '../../shared/temporary-storage'
import { settingsSchema } from '../../shared/settings'
import { endedPid, HOUR, plantRoot } from '../../../testing/planted-leases'
import { createShellHarness, textOf } from '../../../testing/shell-harness'
import { shellTool } from '../tools/shell/shell'
import { selfIdentity } from './process-identity'
import { TempStorage } from './temp-storage'

let dir: string
let base: string
let system: string

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-tempstore-')))
  base = path.join(dir, 'managed')
  system = path.join(dir, 'system')
  await mkdir(base)
  await mkdir(system)
})

afterEach(async () => {
  spawnSync('chmod', ['-R', 'u+rwx', dir])
  await rm(dir, { recursive: true, force: true })
})

/** An old lease of a Mecatl that crashed, in the managed base. */
async function abandonedLease(): Promise<string> {
  const owner = { ...(await selfIdentity()), pid: endedPid(), start: 'planted' }
  const crashed = await plantRoot(base, owner, Date.now() - 48 * HOUR)
  return crashed.lease('bashcmd-1')
}

describe('temporary_storage', () => {
  it('defaults to managed storage, reaped after 24 hours, and checks the span', () => {
    expect(settingsSchema.parse({}).temporary_storage).toEqual({
      mode: 'managed',
      command_reap_after: '24h'
    })
    const parsed = settingsSchema.safeParse({ temporary_storage: { command_reap_after: 'soon' } })
    expect(parsed.success).toBe(false)
    expect(JSON.stringify(parsed.error?.issues)).toContain('90m, 24h or 7d')
    expect(settingsSchema.safeParse({ temporary_storage: { mode: 'tmp' } }).success).toBe(false)
    expect(
      settingsSchema.safeParse({ temporary_storage: { mode: 'system', extra: 1 } }).success
    ).toBe(false)
  })

  it('mode system: the system temp directory as TMPDIR, no leases, no reaper', async () => {
    let settings: TemporaryStorageSettings = { ...temporaryStorageDefaults, mode: 'system' }
    const storage = new TempStorage({
      base,
      systemTempDir: system,
      settings: () => settings,
      background: false
    })
    const abandoned = await abandonedLease()
    const before = await readdir(base)
    const temp = await storage.allocate('bashcmd-1')
    expect(temp).toMatchObject({ tmp: system, lease: null })
    await temp.release()
    // Nothing was made, and the system temp directory is nobody's to remove.
    expect(await readdir(base)).toEqual(before)
    expect(existsSync(system)).toBe(true)
    // No reaper: what managed storage holds is left for the person to look at or remove.
    expect(await storage.reapNow()).toBeNull()
    expect(existsSync(abandoned)).toBe(true)

    // Back to managed, at the next command and the next pass.
    settings = temporaryStorageDefaults
    const managed = await storage.allocate('bashcmd-2')
    expect(managed.tmp.startsWith(base)).toBe(true)
    expect(managed.lease).not.toBeNull()
    expect((await storage.reapNow())?.reclaimed).toContain(abandoned)
    await managed.release()
    await storage.dispose()
  })

  it('gives a Shell call with temp_scope "system" the system temp directory, and keeps it', async () => {
    const h = await createShellHarness({ systemTempDir: system, reapInBackground: false })
    try {
      const out = await h.run(h.shell, {
        command: 'echo "$TMPDIR $TMP $TEMP"; echo kept > "$TMPDIR/shared.txt"',
        temp_scope: 'system'
      })
      expect(out.isError).toBe(false)
      expect(textOf(out)).toContain(`${system} ${system} ${system}`)
      // No lease was made for it, and what it left in the system's directory stays there.
      expect(await readdir(h.tempBase)).toEqual([])
      expect(readFileSync(path.join(system, 'shared.txt'), 'utf8').trim()).toBe('kept')
      // The next call without it is back in a private directory of its own.
      const next = await h.run(h.shell, { command: 'echo "$TMPDIR"; ls -A "$TMPDIR"' })
      const tmp = textOf(next).split('\n\n')[1]?.split('\n')[0] ?? ''
      expect(tmp.startsWith(h.tempBase)).toBe(true)
      expect(textOf(next)).not.toContain('shared.txt')
    } finally {
      await h.cleanup()
    }
  })

  it('tells the model of temp_scope in managed mode, and of the shared directory in system mode', async () => {
    const h = await createShellHarness()
    try {
      expect(h.shell.description).toContain('temp_scope: "system"')
      expect(shellTool(h.jobs, null, 'system').description).toContain(
        'TMPDIR is the system temp directory'
      )
    } finally {
      await h.cleanup()
    }
  })
})
