import type { SearchBackend } from '../../shared/websearch'
import type { EventHub } from '../events/event-hub'
import type { Feature } from '../feature'
import type { JobManager } from '../jobs/job-manager'
import type { GuardOptions } from '../net/address-guard'
import type { KeySource } from '../providers/create-provider'
import type { SandboxService } from '../sandbox/sandbox-service'
import type { SettingsStore } from '../settings/settings-store'
import type { Store } from '../store/store'
import { askUserTool } from './ask-user/ask-user'
import { QuestionBroker } from './ask-user/question-broker'
import type { Catalog } from './catalog'
import { compactTool } from './compact/compact-tool'
import { discoverModelsTool } from './discovery/discover-models'
import { fsTools } from './fs'
import { projectMemoryTools, userModelTools } from './memory/memory-tools'
import { shellTools } from './shell'
import { skillFamily } from './skill/skill-family'
import { todoTool } from './todo/todo'
import type { Tool } from './tool'
import { ToolSet } from './tool-set'
import { webTools } from './web'
import { hasBackend, type SearchSources } from './web/search-sources'

/** The launch choices the built-in tools follow (see CoreOptions for each). */
export interface ToolLaunchOptions {
  interactive: boolean
  extraTools?: Tool[]
  shell?: boolean
  userModel?: boolean
  websearch?: boolean
  skills?: boolean
  skillsDirs?: readonly string[]
  webGuard?: GuardOptions
  searchBackend?: SearchBackend
  searchEndpoints?: SearchSources['endpoints']
}

export interface ToolsNeeds {
  options: ToolLaunchOptions
  env: NodeJS.ProcessEnv
  keys: KeySource
  userDir: string
  jobs: JobManager
  store: Store
  settings: SettingsStore
  sandbox: SandboxService
  hub: EventHub
}

export interface ToolsProvides {
  /** Every tool family under its switch; features after this one add theirs. */
  tools: ToolSet
  /** The built-in tools under the settings in force (a live view). */
  catalog: Catalog
  /** AskUser's questions; null with nobody to ask. */
  questions: QuestionBroker | null
  /** What WebSearch's chain takes besides the settings (the environment, --websearch-url). */
  searchSources: SearchSources
}

/**
 * Every built-in tool, each family under the switch that turns it on and off. Settings decide
 * per turn which are offered; a launch flag (`--no-shell`…) keeps a family off whatever they say.
 */
export const toolsFeature: Feature<ToolsNeeds, ToolsProvides> = {
  name: 'tools',
  start(needs) {
    const { options } = needs
    const searchSources: SearchSources = {
      env: needs.env,
      commandLine: options.searchBackend ?? null,
      endpoints: options.searchEndpoints
    }
    // With nobody to ask (headless), the model is not offered a question it cannot get answered.
    const questions = options.interactive ? new QuestionBroker(needs.hub) : null
    const tools = builtinTools(needs, searchSources, questions)
    return { provides: { tools, catalog: tools.live(), questions, searchSources } }
  }
}

function builtinTools(
  needs: ToolsNeeds,
  searchSources: SearchSources,
  questions: QuestionBroker | null
): ToolSet {
  const { options, settings, sandbox } = needs
  const skills = skillFamily({ userDir: needs.userDir, operatorDirs: options.skillsDirs })
  const [webFetch, ...webSearch] = webTools({
    search: true,
    settings: () => settings.snapshot().websearch,
    sources: searchSources,
    keys: needs.keys,
    guard: options.webGuard ?? {}
  })
  return new ToolSet({
    always: [
      ...fsTools(),
      todoTool,
      compactTool,
      ...(options.extraTools ?? []),
      discoverModelsTool(async () => settings.snapshot()),
      ...projectMemoryTools(needs.store.memory),
      ...(webFetch ? [webFetch] : []),
      ...(questions ? [askUserTool(questions)] : [])
    ],
    switched: {
      // Made per settings: Shell's capabilities and confinement follow the sandbox in force.
      shell: (current) =>
        shellTools(
          needs.jobs,
          {
            status: () => sandbox.status(current),
            expected: () => sandbox.expected(current),
            confine: (workspace, tmp, asked) => sandbox.confine(current, workspace, tmp, asked)
          },
          current.temporary_storage.mode
        ),
      userModel: userModelTools(needs.store.memory),
      // With no backend to ask (`websearch.defaults: false` and none listed), none of the two.
      websearch: (current) => (hasBackend(current.websearch, searchSources) ? webSearch : []),
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
    settingsNow: () => settings.snapshot(),
    prepare: (current) => sandbox.prepare(current)
  })
}
