import {
  checkpointDefaults,
  type CheckpointSettings,
  type CheckpointStatus
} from '../../../../shared/checkpoints'

/** The numbers Settings → Checkpoints edits, each with its key in the settings file. */
export const checkpointNumbers: readonly {
  key: 'keep_days' | 'max_store_mib' | 'max_file_mib'
  label: string
  hint: string
  min: number
}[] = [
  { key: 'keep_days', label: 'Keep for (days)', hint: 'Older checkpoints go first.', min: 1 },
  {
    key: 'max_store_mib',
    label: 'Largest store per project (MiB)',
    hint: 'Beyond it, the oldest go.',
    min: 16
  },
  {
    key: 'max_file_mib',
    label: 'Largest file kept (MiB)',
    hint: 'Larger files are listed as not covered.',
    min: 0.01
  }
]

type Raw = Record<string, unknown>

function entryOf(base: Raw): Raw {
  const entry = base.checkpoints
  return typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? (entry as Raw) : {}
}

/** Whether checkpoints are on in the file as it stands (on unless it says false). */
export function checkpointsOn(base: Raw): boolean {
  return entryOf(base).enabled !== false
}

/** A number as the file gives it, or its default. */
export function checkpointNumber(base: Raw, key: keyof CheckpointSettings): number {
  const value = entryOf(base)[key]
  return typeof value === 'number' ? value : (checkpointDefaults[key] as number)
}

/**
 * The file's `checkpoints` entry with one key changed; a default or a blank field leaves the key
 * out, so the file stays short. Other keys are kept as they are.
 */
export function withCheckpointSetting(
  base: Raw,
  key: keyof CheckpointSettings,
  value: boolean | number | null
): Raw {
  const entry = { ...entryOf(base) }
  if (value === null || value === checkpointDefaults[key]) delete entry[key]
  else entry[key] = value
  return entry
}

/** The status line: on, with how many, or off and why. */
export function statusText(status: CheckpointStatus): string {
  if (!status.on) return `Off: ${status.why ?? 'unknown reason'}.`
  const count = status.count.toLocaleString('en-US')
  return `On: ${count} ${status.count === 1 ? 'checkpoint' : 'checkpoints'} of this folder.`
}
