import { readFile } from 'node:fs/promises'
import path from 'node:path'
import YAML from 'yaml'
import {
  describeIssues,
  projectSettingsSchema,
  type ProjectSettings,
  type SettingsIssue
} from '../../shared/settings'

export interface LoadedProjectSettings {
  path: string
  exists: boolean
  /** The file's settings when valid; with problems, none of them apply. */
  settings: ProjectSettings
  issues: SettingsIssue[]
}

const empty: ProjectSettings = { mcp: [], permissions: { rules: [] } }

/** Where a project keeps its own settings. */
export function projectSettingsPath(workspace: string): string {
  return path.join(workspace, '.mecatl', 'settings.yaml')
}

/**
 * `<project>/.mecatl/settings.yaml`, validated with the project schema. A missing file is no
 * settings; a malformed one is reported and ignored whole, never half applied.
 */
export async function loadProjectSettings(workspace: string): Promise<LoadedProjectSettings> {
  const file = projectSettingsPath(workspace)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT'
    const issues = missing
      ? []
      : [{ path: '(file)', message: `cannot read ${file}: ${String(error)}` }]
    return { path: file, exists: !missing, settings: empty, issues }
  }
  const document = YAML.parseDocument(text, { prettyErrors: true })
  if (document.errors.length > 0) {
    const issues = document.errors.map((error) => ({
      path: '(file)',
      message: `${file} is not valid YAML: ${error.message}`
    }))
    return { path: file, exists: true, settings: empty, issues }
  }
  const parsed = projectSettingsSchema.safeParse(document.toJS() ?? {})
  if (!parsed.success) {
    return { path: file, exists: true, settings: empty, issues: describeIssues(parsed.error) }
  }
  return { path: file, exists: true, settings: parsed.data, issues: [] }
}
