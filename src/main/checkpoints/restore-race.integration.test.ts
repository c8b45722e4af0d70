// A restore holds while the folder under it changes: a real directory inside the project folder
// and a link to a directory outside are swapped atomically (renameat2 RENAME_EXCHANGE) in a tight
// loop while restores put files back under it, as the file tools' race test does to them. Each
// round puts five files back: one created since (removed), one in a folder created since (removed
// with its folder), one changed (written back, with its mode), one deleted (brought back), one
// deleted with its folder (the folder made again). Acting by path, a restore removes, writes and
// creates files through the link; every act must instead land inside the folder or be refused and
// reported, and the directory outside must come through untouched. The rounds run in groups, each
// with a directory, a link and a swapper of its own, so a restore that replaced a link cannot
// disarm more than its group, and the folder stays small. Bounded: a fixed number of restores,
// and swappers that stop when their group is done.
import { lstatSync } from 'node:fs'
import { chmod, mkdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkpointFolder } from '../../../testing/checkpoint-folder'
import { startSwapRace } from '../../../testing/rename-exchange'
import { treeState, touched } from '../../../testing/tree-state'

const GROUPS = 20
const ROUNDS_PER_GROUP = 20
/** Far more than a group takes; reaching it would mean the race ended before the restores. */
const MAX_SWAPS = 50_000_000
/** 400 restores, each a checkpoint and five acts, beside a swapper on a loaded 2-core machine. */
const RACE_TIMEOUT_MS = 300_000

/** What a restore may say of a file the swap kept it from putting back. */
const refusedForTheRace =
  /changed while it was being restored|is a link now|was not there when the restore looked/

/** Round i's files: created, created in a new folder, changed, deleted, deleted with its folder. */
const files = (i: number): string[] => [
  `c-${i}.txt`,
  `n-${i}/c.txt`,
  `w-${i}.txt`,
  `x-${i}.txt`,
  `m-${i}/x.txt`
]

describe('a restore under a rename-exchange race', () => {
  it(
    'removes, writes and creates nothing outside the project folder',
    async () => {
      const f = await checkpointFolder()
      const outside = path.join(f.dir, 'outside')
      const thrown: string[] = []
      const refusals: string[] = []
      const broken: string[] = []
      let put = 0
      let touchedOutside = {
        removed: [] as string[],
        created: [] as string[],
        written: [] as string[]
      }
      for (let g = 0; g < GROUPS; g++) {
        const dir = `d-${g}`
        const target = path.join(outside, `target-${g}`)
        const rounds = Array.from({ length: ROUNDS_PER_GROUP }, (_, r) => g * ROUNDS_PER_GROUP + r)
        for (const i of rounds) {
          await f.write(`${dir}/w-${i}.txt`, `inside ${i}\n`)
          await chmod(path.join(f.workspace, dir, `w-${i}.txt`), 0o755)
          await f.write(`${dir}/x-${i}.txt`, `deleted ${i}\n`)
          await f.write(`${dir}/m-${i}/x.txt`, `deleted with its folder ${i}\n`)
          // What an act through the link would remove or overwrite.
          await mkdir(path.join(target, `n-${i}`), { recursive: true })
          await writeFile(path.join(target, `c-${i}.txt`), `OUTSIDE ${i}\n`)
          await writeFile(path.join(target, `n-${i}`, 'c.txt'), `OUTSIDE ${i}\n`)
          await writeFile(path.join(target, `w-${i}.txt`), `OUTSIDE ${i}\n`)
        }
        const checkpoint = await f.store.take(`before the agent, group ${g}`)
        for (const i of rounds) {
          await f.write(`${dir}/c-${i}.txt`, `created ${i}\n`)
          await f.write(`${dir}/n-${i}/c.txt`, `created in a folder ${i}\n`)
          await f.write(`${dir}/w-${i}.txt`, `changed ${i}\n`)
          await chmod(path.join(f.workspace, dir, `w-${i}.txt`), 0o644)
          await rm(path.join(f.workspace, dir, `x-${i}.txt`))
          await rm(path.join(f.workspace, dir, `m-${i}`), { recursive: true })
        }
        await symlink(target, path.join(f.workspace, `s-${g}`))
        await f.store.take(`after the agent, group ${g}`)
        const before = await treeState(outside)

        const race = await startSwapRace(
          path.join(f.workspace, dir),
          path.join(f.workspace, `s-${g}`),
          MAX_SWAPS
        )
        const done: { round: number; file: string }[] = []
        try {
          for (const i of rounds) {
            try {
              const restored = await f.store.restore(
                checkpoint.id,
                files(i).map((file) => `${dir}/${file}`)
              )
              for (const change of restored.changes) {
                done.push({ round: i, file: change.path.slice(dir.length + 1) })
              }
              for (const left of restored.notRestored) refusals.push(`${left.path}: ${left.why}`)
            } catch (error) {
              thrown.push(String(error))
            }
          }
        } finally {
          // Still swapping when the restores were done: they ran against the race. A swapper
          // that failed found a name gone: a restore took the link or the directory away.
          const swaps = await race.stop().catch((error: unknown) => {
            broken.push(`group ${g}: ${String(error)}`)
            return 0
          })
          expect(swaps).toBeLessThan(MAX_SWAPS)
        }
        const now = touched(before, await treeState(outside))
        touchedOutside = {
          removed: [...touchedOutside.removed, ...now.removed],
          created: [...touchedOutside.created, ...now.created],
          written: [...touchedOutside.written, ...now.written]
        }
        // What was reported put back is in the real directory, whichever name it ended up under.
        const real = lstatSync(path.join(f.workspace, dir)).isDirectory() ? dir : `s-${g}`
        for (const { round, file } of done) {
          const inside = path.join(f.workspace, real, file)
          if (file.startsWith('w-')) {
            expect(await readFile(inside, 'utf8')).toBe(`inside ${round}\n`)
            expect((await stat(inside)).mode & 0o111).not.toBe(0)
          } else if (file.startsWith('x-')) {
            expect(await readFile(inside, 'utf8')).toBe(`deleted ${round}\n`)
          } else if (file.startsWith('m-')) {
            expect(await readFile(inside, 'utf8')).toBe(`deleted with its folder ${round}\n`)
          } else {
            expect(await stat(inside).catch(() => null), `${real}/${file}`).toBeNull()
          }
        }
        put += done.length
        // The group's files go, so the folder each checkpoint walks stays small.
        await rm(path.join(f.workspace, dir), { recursive: true, force: true })
        await rm(path.join(f.workspace, `s-${g}`), { recursive: true, force: true })
      }
      const all = GROUPS * ROUNDS_PER_GROUP
      console.info(
        `restore swap race: ${all} restores, ${put}/${all * 5} files put back, ` +
          `${refusals.length} refused, ${thrown.length} failed, ${broken.length} swappers ` +
          `found a name taken away; outside: ${touchedOutside.removed.length} removed, ` +
          `${touchedOutside.created.length} created, ${touchedOutside.written.length} written`
      )
      expect(touchedOutside).toEqual({ removed: [], created: [], written: [] })
      expect(broken).toEqual([])
      // A restore that could not checkpoint the folder first did nothing, and said so.
      for (const failure of thrown) expect(failure).toMatch(/so nothing was restored/)
      for (const refusal of refusals) expect(refusal).toMatch(refusedForTheRace)
      expect(put).toBeGreaterThan(0)
    },
    RACE_TIMEOUT_MS
  )
})
