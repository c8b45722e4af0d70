import type { SliceName } from '../../shared/contract'
import type { Handlers, SliceHandlers } from '../../shared/contract/handlers'
import type { Services } from '../core'
import { appApi } from './app'
import { chatApi } from './chat'
import { checkpointsApi } from './checkpoints'
import { filesApi } from './files'
import { jobsApi } from './jobs'
import { mcpApi } from './mcp'
import { memoryApi } from './memory'
import { permissionsApi } from './permissions'
import { providersApi } from './providers'
import { questionsApi } from './questions'
import { sandboxApi } from './sandbox'
import { sessionsApi } from './sessions'
import { settingsApi } from './settings'
import { skillsApi } from './skills'
import { toolsApi } from './tools'
import { websearchApi } from './websearch'
import { workspaceApi } from './workspace'

/**
 * One answer per contract slice: `src/shared/contract/<feature>.ts` is answered by
 * `<feature>.ts` here, which takes only the services it names. A slice without its file here, or
 * a file that misses one of its slice's calls, does not compile.
 */
const api: { [S in SliceName]: (services: Services) => SliceHandlers<S> } = {
  app: appApi,
  workspace: workspaceApi,
  sessions: sessionsApi,
  chat: chatApi,
  permissions: permissionsApi,
  settings: settingsApi,
  providers: providersApi,
  tools: toolsApi,
  sandbox: sandboxApi,
  mcp: mcpApi,
  files: filesApi,
  jobs: jobsApi,
  memory: memoryApi,
  websearch: websearchApi,
  skills: skillsApi,
  checkpoints: checkpointsApi,
  questions: questionsApi
}

/** Every call of the contract, answered by the feature it belongs to. */
export function createHandlers(services: Services): Handlers {
  const answers = Object.values(api).map((answer) => answer(services))
  return Object.assign({}, ...answers) as Handlers
}
