import type { CallOutput } from '../../../../shared/contract'

export type SettingsHealthView = CallOutput<'settings.status'>
export type SettingsFileView = SettingsHealthView['files'][number]

export interface SettingsHealthState {
  /** The folder the banner speaks for (a project window), or null (the welcome screen). */
  workspace: string | null
  blocked: boolean
  files: SettingsFileView[]
}

export type SettingsHealthAction =
  { type: 'loaded'; workspace: string | null; health: SettingsHealthView } | { type: 'failed' }

export const initialSettingsHealth: SettingsHealthState = {
  workspace: null,
  blocked: false,
  files: []
}

/** The settings files' problems, as the banner shows them; a failed read keeps what was known. */
export function settingsHealthReducer(
  state: SettingsHealthState,
  action: SettingsHealthAction
): SettingsHealthState {
  switch (action.type) {
    case 'loaded':
      return {
        workspace: action.workspace,
        blocked: action.health.blocked,
        files: action.health.files
      }
    case 'failed':
      return state
  }
}

/** `settings.yaml line 7: "shel" is not a setting here; did you mean "shell"?` */
export function describeProblem(file: SettingsFileView, index: number): string {
  const issue = file.issues[index]
  if (!issue) return ''
  const name = file.path.split(/[\\/]/).slice(-2).join('/')
  const where = issue.line !== undefined ? ` line ${issue.line}` : ''
  const what = issue.path === '(file)' ? '' : `${issue.path}: `
  return `${name}${where}: ${what}${issue.message}`
}

/** The banner's headline for the files with problems. */
export function bannerHeadline(state: SettingsHealthState): string {
  const count = state.files.reduce((sum, file) => sum + file.issues.length, 0)
  const problems = count === 1 ? 'a problem' : `${count} problems`
  const which =
    state.files.length === 1 && state.files[0]?.scope === 'project'
      ? "This project's settings file has"
      : state.files.length === 1
        ? 'Your settings file has'
        : 'Your settings files have'
  if (state.blocked) {
    return `${which} ${problems} and there is no earlier valid copy to use, so nothing can run until ${count === 1 ? 'it is' : 'they are'} fixed.`
  }
  return `${which} ${problems}. Mecatl is using the last settings that were valid until ${count === 1 ? 'it is' : 'they are'} fixed.`
}
