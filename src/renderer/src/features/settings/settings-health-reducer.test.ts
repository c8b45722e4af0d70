import { describe, expect, it } from 'vitest'
import {
  bannerHeadline,
  describeProblem,
  initialSettingsHealth,
  settingsHealthReducer,
  type SettingsFileView
} from './settings-health-reducer'

const userFile: SettingsFileView = {
  scope: 'user',
  path: '/home/ana/.config/Mecatl/settings.yaml',
  source: 'last-valid',
  issues: [
    {
      path: 'shel',
      line: 7,
      column: 1,
      message: '"shel" is not a setting here; did you mean "shell"?'
    },
    { path: '(file)', message: 'something about the whole file' }
  ]
}

describe('the settings banner', () => {
  it('names the file, the line and the problem', () => {
    expect(describeProblem(userFile, 0)).toBe(
      'Mecatl/settings.yaml line 7: shel: "shel" is not a setting here; did you mean "shell"?'
    )
    expect(describeProblem(userFile, 1)).toBe(
      'Mecatl/settings.yaml: something about the whole file'
    )
  })

  it('says whether the last valid settings are in force or nothing can run', () => {
    const usingCopy = settingsHealthReducer(initialSettingsHealth, {
      type: 'loaded',
      workspace: null,
      health: { blocked: false, files: [userFile] }
    })
    expect(bannerHeadline(usingCopy)).toBe(
      'Your settings file has 2 problems. Mecatl is using the last settings that were valid until they are fixed.'
    )
    const blocked = settingsHealthReducer(usingCopy, {
      type: 'loaded',
      workspace: '/p',
      health: {
        blocked: true,
        files: [{ ...userFile, scope: 'project', source: 'none', issues: [userFile.issues[0]!] }]
      }
    })
    expect(bannerHeadline(blocked)).toBe(
      "This project's settings file has a problem and there is no earlier valid copy to use, so nothing can run until it is fixed."
    )
  })

  it('keeps what it knew when a read fails', () => {
    const known = settingsHealthReducer(initialSettingsHealth, {
      type: 'loaded',
      workspace: null,
      health: { blocked: true, files: [userFile] }
    })
    expect(settingsHealthReducer(known, { type: 'failed' })).toBe(known)
  })
})
