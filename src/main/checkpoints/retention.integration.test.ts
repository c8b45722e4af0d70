// The checkpoint service over real stores: retention by age and by size (the newest always
// stays), a deleted session's checkpoints, and a machine without git.
import { randomBytes } from 'node:crypto'
import { mkdir, readdir, utimes } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkpointDefaults, type CheckpointSettings } from '../../shared/checkpoints'
import { checkpointFolder } from '../../../testing/checkpoint-folder'
import { Checkpoints, type TakeOutcome } from './checkpoints'
import type { TakenCheckpoint } from './shadow-store'

const DAY = 24 * 60 * 60 * 1000
const MIB = 1024 * 1024
const T0 = Date.UTC(2030, 0, 1)

interface Service {
  checkpoints: Checkpoints
  workspace: string
  dataDir: string
  write: (file: string, content: string | Buffer) => Promise<void>
  /** Takes a checkpoint at the given time, and waits for the clean-up it may start. */
  takeAt: (at: number, reason: string, sessionId?: string) => Promise<TakenCheckpoint>
}

async function service(settings: Partial<CheckpointSettings> = {}): Promise<Service> {
  const f = await checkpointFolder()
  const dataDir = path.join(f.dir, 'data')
  let clock = T0
  const checkpoints = new Checkpoints(
    dataDir,
    process.env,
    () => ({ ...checkpointDefaults, ...settings }),
    () => clock
  )
  return {
    checkpoints,
    workspace: f.workspace,
    dataDir,
    write: f.write,
    takeAt: async (at, reason, sessionId = 's1') => {
      clock = at
      const taken = await checkpoints.tryTake(f.workspace, reason, sessionId)
      await checkpoints.settled()
      return ok(taken)
    }
  }
}

function ok(outcome: TakeOutcome | null): TakenCheckpoint {
  if (!outcome || !('ok' in outcome)) throw new Error(`not taken: ${JSON.stringify(outcome)}`)
  return outcome.ok
}

const ids = async (s: Service): Promise<string[]> =>
  (await s.checkpoints.store(s.workspace).list()).map((c) => c.id)

describe('checkpoint retention', () => {
  it('drops checkpoints older than keep_days, and never the newest', async () => {
    const s = await service({ keep_days: 30 })
    const old: string[] = []
    for (let i = 0; i < 3; i++) {
      await s.write('README.md', `old ${i}\n`)
      old.push((await s.takeAt(T0 - (40 - i) * DAY, `old ${i}`)).id)
    }
    await s.write('README.md', 'recent\n')
    const recent = await s.takeAt(T0 - 10 * DAY, 'recent')
    await s.write('README.md', 'newest\n')
    const newest = await s.takeAt(T0, 'newest')
    expect(await ids(s)).toEqual([newest.id, recent.id])

    // A hundred days on, with nothing changed: every checkpoint is old, and the newest stays.
    const same = await s.takeAt(T0 + 100 * DAY, 'nothing changed')
    expect(same.id).toBe(newest.id)
    expect(await ids(s)).toEqual([newest.id])
    const store = s.checkpoints.store(s.workspace)
    await s.write('README.md', 'after\n')
    await store.restore(newest.id)
    expect(await store.fileAt(newest.id, 'README.md')).toEqual(Buffer.from('newest\n'))
  })

  // Packing 25 MiB of bytes that do not compress takes git a few seconds a round.
  it(
    'drops the oldest checkpoints until the store is under max_store_mib',
    { timeout: 60_000 },
    async () => {
      const limit = 16
      const s = await service({ max_store_mib: limit })
      const taken: string[] = []
      // 20 checkpoints, each with 1 MiB of bytes no other has: about 20 MiB of history.
      for (let i = 0; i < 20; i++) {
        await s.write('data.bin', randomBytes(MIB))
        taken.push((await s.takeAt(T0 + i * 20_000, `round ${i}`)).id)
      }
      // The clean-up after the first take found a small store; the next is due ten minutes on.
      const store = s.checkpoints.store(s.workspace)
      expect(await store.sizeBytes()).toBeGreaterThan(limit * MIB)
      const last = randomBytes(MIB)
      await s.write('data.bin', last)
      const newest = await s.takeAt(T0 + 60 * 60_000, 'newest')

      const kept = await ids(s)
      expect(kept[0]).toBe(newest.id)
      // The oldest went first: what stays is the newest ones, in order, and more than the newest.
      expect(kept.slice(1)).toEqual(taken.slice(taken.length - (kept.length - 1)).reverse())
      expect(kept.length).toBeGreaterThan(2)
      expect(await store.keptBytes()).toBeLessThanOrEqual(limit * MIB)
      expect(await store.fileAt(newest.id, 'data.bin')).toEqual(last)
      // What the dropped ones held is deleted once it is an hour old (it may belong to a
      // checkpoint being written beside the clean-up until then).
      await ageLooseObjects(store.gitDir, 2 * 60 * 60 * 1000)
      await store.compact()
      expect(await store.sizeBytes()).toBeLessThanOrEqual(limit * MIB)
    }
  )

  it('drops a deleted session’s checkpoints, and only those, but never the newest', async () => {
    const s = await service()
    const mine: string[] = []
    const theirs: string[] = []
    for (let i = 0; i < 6; i++) {
      await s.write('README.md', `round ${i}\n`)
      const sessionId = i % 2 === 0 ? 'theirs' : 'mine'
      const taken = await s.takeAt(T0 + i * 1000, `round ${i}`, sessionId)
      ;(sessionId === 'mine' ? mine : theirs).push(taken.id)
    }
    const newest = mine.at(-1)
    expect(await s.checkpoints.removeSession(s.workspace, 'mine')).toBe(mine.length - 1)
    await s.checkpoints.settled()
    expect(await ids(s)).toEqual([newest, ...[...theirs].reverse()])
    expect(await s.checkpoints.removeSession(s.workspace, 'nobody')).toBe(0)
  })
})

describe('a card’s files', () => {
  it('name a file left out for its size, never what .gitignore leaves out', async () => {
    const s = await service({ max_file_mib: 0.001 })
    await s.write('.gitignore', 'dist/\n*.log\n')
    await s.write('dist/bundle.js', 'bundle\n')
    await s.write('debug.log', 'log\n')
    await s.takeAt(T0, 'before')
    await s.write('big.txt', 'x'.repeat(5000))
    await s.write('README.md', 'changed\n')
    const card = await s.checkpoints.filesAfter(s.workspace, 'after Shell', 's1', 'call')
    expect(card).toMatchObject({
      changes: [{ path: 'README.md', change: 'changed' }],
      notCovered: [{ path: 'big.txt', why: 'over the 1049-byte limit' }]
    })
    const plan = await s.checkpoints
      .store(s.workspace)
      .plan(card && 'before' in card ? card.before : '')
    expect(plan.notCovered.map((n) => n.path)).toEqual(['big.txt', 'debug.log', 'dist'])
  })
})

describe('a size limit changed in Settings', () => {
  it('applies to the next checkpoint, never running two of one folder at once', async () => {
    const f = await checkpointFolder()
    let mib = 5
    const checkpoints = new Checkpoints(path.join(f.dir, 'data'), process.env, () => ({
      ...checkpointDefaults,
      max_file_mib: mib
    }))
    await f.write('big.txt', 'x'.repeat(3 * MIB))
    const takes: Promise<TakeOutcome | null>[] = []
    for (let i = 0; i < 10; i++) {
      mib = i % 2 === 0 ? 1 : 5
      await f.write('README.md', `round ${i}\n`)
      takes.push(checkpoints.tryTake(f.workspace, `round ${i}`, 's1'))
    }
    const outcomes = await Promise.all(takes)
    expect(outcomes.filter((o) => !o || !('ok' in o))).toEqual([])
    await checkpoints.settled()
    // A file written under a lower limit is left out; raised again, the limit lets it in.
    mib = 1
    await f.write('new.txt', 'y'.repeat(2 * MIB))
    const lower = ok(await checkpoints.tryTake(f.workspace, 'lower', 's1'))
    expect(lower.notCovered).toEqual([{ path: 'new.txt', why: 'over the 1 MiB limit' }])
    mib = 5
    await f.write('README.md', 'last\n')
    const higher = ok(await checkpoints.tryTake(f.workspace, 'higher', 's1'))
    expect(higher.notCovered).toEqual([])
    expect((await checkpoints.store(f.workspace).fileAt(higher.id, 'new.txt'))?.length).toBe(
      2 * MIB
    )
  })
})

describe('a machine without git', () => {
  it('says checkpoints are off and why, and a take fails with that sentence without throwing', async () => {
    const f = await checkpointFolder()
    const empty = path.join(f.dir, 'empty-bin')
    await mkdir(empty)
    const checkpoints = new Checkpoints(path.join(f.dir, 'data'), { PATH: empty })
    const why = /the git program is not installed \(install git, e\.g\. apt-get install git\)/
    const status = await checkpoints.status(f.workspace)
    expect(status).toEqual({ on: false, why: expect.stringMatching(why), count: 0 })
    const taken = await checkpoints.tryTake(f.workspace, 'before', 's1')
    expect(taken).toEqual({ failed: status.why })
    expect(await checkpoints.filesAfter(f.workspace, 'after Write', 's1', 'call')).toEqual({
      during: 'call',
      failed: status.why
    })
    expect(await checkpoints.removeSession(f.workspace, 's1')).toBe(0)
    await checkpoints.settled()
  })
})

/** Sets back the time of every loose object, as if written `ms` ago. */
async function ageLooseObjects(gitDir: string, ms: number): Promise<void> {
  const objects = path.join(gitDir, 'objects')
  const when = new Date(Date.now() - ms)
  for (const dir of await readdir(objects)) {
    if (!/^[0-9a-f]{2}$/.test(dir)) continue
    for (const file of await readdir(path.join(objects, dir))) {
      await utimes(path.join(objects, dir, file), when, when)
    }
  }
}
