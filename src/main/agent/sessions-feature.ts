import path from 'node:path'
import type { ApprovalMode, ModelRef } from '../../shared/domain'
import type { Checkpoints } from '../checkpoints/checkpoints'
import type { EventHub } from '../events/event-hub'
import type { Feature } from '../feature'
import { nobodyToAsk } from '../gate/gate'
import type { InteractiveApprover } from '../gate/interactive-approver'
import type { RuleBook } from '../gate/rule-book'
import type { ProviderLookup } from '../providers/provider-lookup'
import type { SettingsStore } from '../settings/settings-store'
import type { Store } from '../store/store'
import type { Catalog } from '../tools/catalog'
import { recallSessionTool } from '../tools/recall/recall-session'
import type { ToolSet } from '../tools/tool-set'
import type { WorkspaceTrust } from '../workspace/workspace-trust'
import { updateCardDisplay } from './card-update'
import { jobCheckpoints } from './job-checkpoints'
import type { Session } from './session'
import { SessionService } from './session-service'
import { BackgroundChildren } from './subagent/background-children'
import type { DelegationDeps } from './subagent/child-run'
import { delegationTools } from './subagent/delegation-tools'
import { ParallelRuns } from './subagent/parallel'
import { TurnAssembler } from './turn-assembly'

export interface SessionsNeeds {
  options: {
    dataDir: string
    /** A mode forced from the command line wins over the settings file. */
    modeOverride?: ApprovalMode
    /** `--yes`: allow what the mode would ask about (never a prompt rule or the interlock). */
    autoApprove?: boolean
    /** The model new sessions start with, instead of the settings' default. */
    defaultModel?: ModelRef
  }
  settings: SettingsStore
  rules: RuleBook
  approver: InteractiveApprover | null
  providers: ProviderLookup
  tools: ToolSet
  store: Store
  hub: EventHub
  userDir: string
  trust: WorkspaceTrust
  checkpoints: Checkpoints
}

export interface SessionsProvides {
  /** Puts every turn together (sessions, child agents, `mecatl call`). */
  turns: TurnAssembler
  sessions: SessionService
  /** The built-in tools plus the MCP tools of one project folder (its servers start on first ask). */
  catalogFor: (workspace: string) => Promise<Catalog>
  /** Sub-agents running in the background, each on the card of the call that started it. */
  background: BackgroundChildren
  /** Select-mode Parallel runs waiting for a branch to be taken. */
  parallel: ParallelRuns
}

/** Sessions and their turns, with the sub-agents and parallel runs a turn can start. */
export const sessionsFeature: Feature<SessionsNeeds, SessionsProvides> = {
  name: 'sessions',
  start(needs) {
    const { options, settings, hub, tools, checkpoints } = needs
    const turns = new TurnAssembler({
      settings: () => settings.snapshot(),
      rules: needs.rules,
      approver: needs.approver ?? nobodyToAsk,
      providers: needs.providers,
      tools,
      store: needs.store.sessions,
      spillRoot: path.join(options.dataDir, 'spill'),
      hub,
      userDir: needs.userDir,
      trust: needs.trust,
      checkpoints,
      launch: {
        modeOverride: options.modeOverride,
        autoApprove: options.autoApprove,
        defaultModel: options.defaultModel
      }
    })
    // Read when a session might be let go of; `background` is made below, before any turn runs.
    const sessions = new SessionService(turns, (id) =>
      background.list(id).some((run) => run.state === 'running')
    )
    const live = (id: string): Session | null => orNull(() => sessions.get(id))
    // A CLI `call` has no session: the id then names none, and Recall says so.
    tools.add(recallSessionTool((id) => orNull(() => sessions.get(id).transcript())))
    // A background job's end checkpoints its folder; heard for as long as the core lives, since
    // jobs stop after the sessions do.
    hub.on('job.updated', jobCheckpoints({ checkpoints, hub, session: live }))
    const background = new BackgroundChildren((sessionId, callId, display) =>
      updateCardDisplay(sessions.get(sessionId), hub, callId, display)
    )
    const delegation: DelegationDeps = {
      turns,
      session: (id) => sessions.get(id),
      taintChanged: (session) => hub.emit('session.updated', session.summary()),
      // A background sub-agent's progress goes on the card of the Subagent call that started it.
      background
    }
    const parallel = new ParallelRuns(
      (sessionId, callId, display) =>
        updateCardDisplay(sessions.get(sessionId), hub, callId, display),
      // A branch taken from the window changes the folder outside any call: checkpointed around.
      async (sessionId, reason) => {
        await checkpoints.tryTake(sessions.get(sessionId).workspace, reason, sessionId)
      }
    )
    // Profiles and teams are read from the settings of each turn, like every other switch.
    tools.fromSettingsBy((current, builtins) =>
      delegationTools(current, builtins, delegation, parallel)
    )
    return {
      provides: {
        turns,
        sessions,
        catalogFor: (workspace) => turns.toolsFor(workspace),
        background,
        parallel
      },
      stop: async () => {
        await sessions.dispose()
        // Background sub-agents end with their sessions' run: none outlives the core.
        await background.dispose()
        // Select-mode branches nobody took: their copies go with the process.
        await parallel.dispose()
      }
    }
  }
}

/** What `read` gives, or null when it throws (an id that names no session). */
function orNull<T>(read: () => T): T | null {
  try {
    return read()
  } catch {
    return null
  }
}
