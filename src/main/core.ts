import path from 'node:path'
import type { ApprovalMode, ModelRef } from '../shared/domain'
import type { Settings } from '../shared/settings'
import { SessionService } from './agent/session-service'
import { nobodyToAsk } from './gate/gate'
import { InteractiveApprover } from './gate/interactive-approver'
import type { Provider } from './providers/provider'
import { EventHub } from './rpc/event-hub'
import { createHandlers, type HostHooks } from './rpc/handlers'
import { createRouter, type Router } from './rpc/router'
import { SettingsStore } from './settings/settings-store'
import { Catalog } from './tools/catalog'
import { fsTools } from './tools/fs'
import type { Tool } from './tools/tool'
import { RecentFolders } from './workspace/recent-folders'

export interface CoreOptions {
  dataDir: string
  /** A settings file used instead of the user's (`--config`). */
  configPath?: string
  host: 'electron' | 'browser' | 'cli'
  /** Whether a person can answer approval requests (a window is attached). */
  interactive: boolean
  modeOverride?: ApprovalMode
  env?: NodeJS.ProcessEnv
  /** The folder this process was started for, if any. */
  workspace?: string | null
  hooks?: HostHooks
  /** Extra tools (tests register slow or failing ones here). */
  extraTools?: Tool[]
  providerFor?: (ref: ModelRef, settings: Settings) => Provider | null
  /** The model new sessions start with, instead of the settings' default. */
  defaultModel?: ModelRef
}

/** Everything the main process owns, without Electron: the desktop, browser mode and CLI share it. */
export interface Core {
  router: Router
  hub: EventHub
  catalog: Catalog
  sessions: SessionService
  settings: SettingsStore
  dispose(): Promise<void>
}

export async function createCore(options: CoreOptions): Promise<Core> {
  const env = options.env ?? process.env
  const hub = new EventHub()
  const catalog = new Catalog([...fsTools(), ...(options.extraTools ?? [])])
  const settings = new SettingsStore(
    options.configPath ?? path.join(options.dataDir, 'settings.yaml')
  )
  await settings.load()
  const approver = options.interactive ? new InteractiveApprover(hub) : null
  const keys = { env, readSecret: options.hooks?.readSecret }
  const sessions = new SessionService({
    hub,
    catalog,
    approver: approver ?? nobodyToAsk,
    keys,
    settings: async () => (await settings.get()).settings,
    modeOverride: options.modeOverride,
    defaultModel: options.defaultModel,
    providerFor: options.providerFor
  })
  const handlers = createHandlers({
    host: options.host,
    dataDir: options.dataDir,
    workspace: options.workspace ?? null,
    hooks: options.hooks ?? {},
    catalog,
    sessions,
    settings,
    approver,
    keys,
    recent: new RecentFolders(path.join(options.dataDir, 'recent-folders.json'))
  })
  return {
    router: createRouter(handlers),
    hub,
    catalog,
    sessions,
    settings,
    dispose: () => sessions.dispose()
  }
}
