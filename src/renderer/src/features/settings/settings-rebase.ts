import { isRecord, sameValue } from './settings-model'

/**
 * The settings this window holds once the file was written elsewhere (Always allow, another
 * window): a setting the person left alone here takes what is on disk now, one they edited keeps
 * their edit. Two levels deep, so a mode changed here and a rule added by Always allow both
 * survive in `permissions`. All three are settings as Save builds them.
 */
export function rebased(saved: unknown, mine: unknown, disk: unknown, depth = 0): unknown {
  if (sameValue(mine, saved)) return disk
  if (sameValue(disk, saved) || depth >= 2 || !isRecord(mine) || !isRecord(disk)) return mine
  const base = isRecord(saved) ? saved : {}
  const keys = [...new Set([...Object.keys(mine), ...Object.keys(disk)])]
  return Object.fromEntries(
    keys.flatMap((key) => {
      const value = rebased(base[key], mine[key], disk[key], depth + 1)
      return value === undefined ? [] : [[key, value]]
    })
  )
}
