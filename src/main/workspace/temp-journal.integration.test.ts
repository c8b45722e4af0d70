import { spawn } from 'node:child_process'
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  symlink,
  writeFile
} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createCore } from '../core'
import { pathDir, writeFileAtomicIn, type WriteDir } from './atomic-write'
import { releaseTempJournal, sweepTempJournal, tempNameFor, useTempJournal } from './temp-journal'

let base: string
let folder: string
let journal: string
beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-journal-')))
  folder = path.join(base, 'project')
  journal = path.join(base, 'data', 'pending-writes')
  await mkdir(folder)
})
afterEach(async () => {
  releaseTempJournal(journal)
  await rm(base, { recursive: true, force: true })
})

/** The id of a process that has exited, as a Mecatl killed mid-write would have left. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  await new Promise((resolve) => child.on('exit', resolve))
  if (child.pid === undefined) throw new Error('the child process did not start')
  return child.pid
}

/** What a process killed between creating its temporary file and renaming it leaves behind. */
async function leaveInFlight(pid: number, name: string): Promise<string> {
  const { temp, token } = tempNameFor(name)
  const file = path.join(folder, temp)
  await mkdir(journal, { recursive: true })
  await writeFile(path.join(journal, `${pid}-${token}.json`), JSON.stringify({ temp: file }))
  await writeFile(file, 'half of it')
  return file
}

/** A directory whose verify hook runs `during` at the moment before the rename. */
function pausedDir(during: () => Promise<void>): WriteDir {
  return { ...pathDir(folder), verify: during }
}

describe('the temporary file of an atomic write', () => {
  it('has a distinctive name and a journal record exactly while it exists', async () => {
    useTempJournal(journal)
    const seen: { files: string[]; records: string[]; recorded: unknown }[] = []
    await writeFileAtomicIn(
      pausedDir(async () => {
        const records = await readdir(journal)
        seen.push({
          files: await readdir(folder),
          records,
          recorded: JSON.parse(await readFile(path.join(journal, records[0] ?? ''), 'utf8'))
        })
      }),
      'a.txt',
      'content',
      null
    )
    expect(seen).toHaveLength(1)
    const { files, records, recorded } = seen[0] ?? { files: [], records: [], recorded: null }
    expect(files).toEqual([expect.stringMatching(/^\.a\.txt\.mecatl-[0-9a-f]{12}\.tmp$/)])
    const temp = files[0] ?? ''
    const token = /mecatl-([0-9a-f]{12})/.exec(temp)?.[1]
    expect(records).toEqual([`${process.pid}-${token}.json`])
    expect(recorded).toEqual({ temp: path.join(folder, temp) })
    expect(await readdir(folder)).toEqual(['a.txt'])
    expect(await readdir(journal)).toEqual([])
  })

  it('is removed with its record when the write fails', async () => {
    useTempJournal(journal)
    const failing = pausedDir(async () => {
      throw new Error('disk gone')
    })
    await expect(writeFileAtomicIn(failing, 'a.txt', 'x', null)).rejects.toThrow('disk gone')
    expect(await readdir(folder)).toEqual([])
    expect(await readdir(journal)).toEqual([])
  })
})

describe('sweepTempJournal', () => {
  it("removes what a dead process left in flight, and nothing that is not Mecatl's", async () => {
    const dead = await deadPid()
    const left = await leaveInFlight(dead, 'notes.md')
    // A live writer's temporary file is still in use: kept, with its record.
    const live = await leaveInFlight(process.pid, 'busy.md')
    // A record naming a file without the temporary name (edited, or someone else's): kept.
    const { token } = tempNameFor('x')
    await writeFile(path.join(folder, 'precious.txt'), 'keep')
    await writeFile(
      path.join(journal, `${dead}-${token}.json`),
      JSON.stringify({ temp: path.join(folder, 'precious.txt') })
    )
    // The temporary name with another record's token: not the file this record is about.
    const other = tempNameFor('y')
    await writeFile(path.join(folder, other.temp), 'keep')
    await writeFile(
      path.join(journal, `${dead}-${tempNameFor('z').token}.json`),
      JSON.stringify({ temp: path.join(folder, other.temp) })
    )
    // A link with the temporary name: never followed, never removed.
    const linked = tempNameFor('link')
    await writeFile(path.join(base, 'target.txt'), 'keep')
    await symlink(path.join(base, 'target.txt'), path.join(folder, linked.temp))
    await writeFile(
      path.join(journal, `${dead}-${linked.token}.json`),
      JSON.stringify({ temp: path.join(folder, linked.temp) })
    )
    // Cut short as its writer was killed.
    await writeFile(path.join(journal, `${dead}-${tempNameFor('w').token}.json`), '{"te')
    // Not a record at all.
    await writeFile(path.join(journal, 'README'), 'mine')

    expect(await sweepTempJournal(journal)).toEqual([left])

    expect((await readdir(folder)).sort()).toEqual(
      [path.basename(live), 'precious.txt', other.temp, linked.temp].sort()
    )
    expect(await readFile(path.join(base, 'target.txt'), 'utf8')).toBe('keep')
    expect(await readdir(journal)).toEqual(
      expect.arrayContaining(['README', expect.stringMatching(new RegExp(`^${process.pid}-`))])
    )
    expect(await readdir(journal)).toHaveLength(2)
  })

  it('runs when a core starts, and the core journals its writes there', async () => {
    const dataDir = path.dirname(journal)
    const left = await leaveInFlight(await deadPid(), 'draft.txt')
    const core = await createCore({ dataDir, host: 'cli', interactive: false })
    let records: string[] = []
    try {
      await writeFileAtomicIn(
        pausedDir(async () => {
          records = await readdir(journal)
        }),
        'b.txt',
        'x',
        null
      )
    } finally {
      await core.dispose()
    }
    expect(records).toEqual([
      expect.stringMatching(new RegExp(`^${process.pid}-[0-9a-f]{12}\\.json$`))
    ])
    expect(await readdir(folder)).toEqual(['b.txt'])
    expect(await readdir(journal)).toEqual([])
    await expect(readFile(left)).rejects.toThrow(/ENOENT/)
  })
})
