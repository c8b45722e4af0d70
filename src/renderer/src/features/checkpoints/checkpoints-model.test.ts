import { describe, expect, it } from 'vitest'
import {
  checkpointNumber,
  checkpointsOn,
  statusText,
  withCheckpointSetting
} from './checkpoints-model'

describe('Settings → Checkpoints', () => {
  it('reads the file with the defaults filled in', () => {
    expect(checkpointsOn({})).toBe(true)
    expect(checkpointsOn({ checkpoints: { enabled: false } })).toBe(false)
    expect(checkpointNumber({}, 'keep_days')).toBe(30)
    expect(checkpointNumber({ checkpoints: { max_store_mib: 512 } }, 'max_store_mib')).toBe(512)
  })

  it('writes only what differs from the default, keeping other keys', () => {
    const base = { checkpoints: { keep_days: 7, unknown_key: 1 } }
    expect(withCheckpointSetting(base, 'enabled', false)).toEqual({
      keep_days: 7,
      unknown_key: 1,
      enabled: false
    })
    expect(withCheckpointSetting(base, 'keep_days', 30)).toEqual({ unknown_key: 1 })
    expect(withCheckpointSetting(base, 'keep_days', null)).toEqual({ unknown_key: 1 })
  })

  it('says whether they are on, and why not', () => {
    expect(statusText({ on: true, why: null, count: 1 })).toBe('On: 1 checkpoint of this folder.')
    expect(statusText({ on: false, why: 'the git program is not installed', count: 0 })).toBe(
      'Off: the git program is not installed.'
    )
  })
})
