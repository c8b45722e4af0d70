import type { Settings } from '../shared/settings'
import type { CoreOptions } from './core'
import type { JobManager } from './jobs/job-manager'
import type { KeySource } from './providers/create-provider'
import type { SandboxService } from './sandbox/sandbox-service'
import type { SettingsStore } from './settings/settings-store'
import type { Store } from './store/store'
import { askUserTool } from './tools/ask-user/ask-user'
import type { QuestionBroker } from './tools/ask-user/question-broker'
import { compactTool } from './tools/compact/compact-tool'
import { discoverModelsTool } from './tools/discovery/discover-models'
import { fsTools } from './tools/fs'
import { projectMemoryTools, userModelTools } from './tools/memory/memory-tools'
import { shellTools } from './tools/shell'
import { skillFamily } from './tools/skill/skill-family'
import { todoTool } from './tools/todo/todo'
import { ToolSet } from './tools/tool-set'
import { webTools } from './tools/web'
import { hasBackend, type SearchSources } from './tools/web/search-sources'

/** What the built-in tools are made of: the core's services they act through. */
export interface BuiltinParts {
  options: CoreOptions
  env: NodeJS.ProcessEnv
  keys: KeySource
  searchSources: SearchSources
  userDir: string
  jobs: JobManager
  store: Store
  settings: SettingsStore
  questions: QuestionBroker | null
  sandbox: SandboxService
}

/**
 * Every built-in tool, each family under the switch that turns it on and off. Settings decide
 * per turn which are offered; a launch flag (`--no-shell`…) keeps a family off whatever they say.
 */
export function builtinTools(parts: BuiltinParts): ToolSet {
  const { options, settings } = parts
  const now = (): Settings => settings.snapshot()
  const skills = skillFamily({ userDir: parts.userDir, operatorDirs: options.skillsDirs })
  const [webFetch, ...webSearch] = webTools({
    search: true,
    settings: () => now().websearch,
    sources: parts.searchSources,
    keys: parts.keys,
    guard: options.webGuard ?? {}
  })
  return new ToolSet({
    always: [
      ...fsTools(),
      todoTool,
      compactTool,
      ...(options.extraTools ?? []),
      discoverModelsTool(async () => (await settings.get()).settings),
      ...projectMemoryTools(parts.store.memory),
      ...(webFetch ? [webFetch] : []),
      ...(parts.questions ? [askUserTool(parts.questions)] : [])
    ],
    switched: {
      // Made per settings: Shell's capabilities and confinement follow the sandbox in force.
      shell: (current) =>
        shellTools(
          parts.jobs,
          {
            status: () => parts.sandbox.status(current),
            confine: (workspace, tmp, asked) =>
              parts.sandbox.confine(current, workspace, tmp, asked)
          },
          current.temporary_storage.mode
        ),
      userModel: userModelTools(parts.store.memory),
      // With no backend to ask (`websearch.defaults: false` and none listed), none of the two.
      websearch: (current) => (hasBackend(current.websearch, parts.searchSources) ? webSearch : []),
      skills: skills.tools
    },
    // Skill names the folder's skills in its description, and is left out where there are none.
    inFolder: { skills: skills.inFolder },
    launch: {
      shell: options.shell,
      userModel: options.userModel,
      websearch: options.websearch,
      skills: options.skills
    },
    settingsNow: now,
    prepare: (current) => parts.sandbox.prepare(current)
  })
}
