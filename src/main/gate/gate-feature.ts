import path from 'node:path'
import type { EventHub } from '../events/event-hub'
import type { Feature } from '../feature'
import type { ProjectSettingsFiles } from '../settings/project-settings'
import type { SettingsStore } from '../settings/settings-store'
import { warmBashParser } from './bash-parser'
import { InteractiveApprover } from './interactive-approver'
import { RuleBook } from './rule-book'

export interface GateProvides {
  /** Permission rules of every scope (session, project, user). */
  rules: RuleBook
  /** Who answers approval requests: a window's person; null headless (the mode decides). */
  approver: InteractiveApprover | null
}

/** The gate's standing parts: the rule book and, with a window, the person who is asked. */
export const gateFeature: Feature<
  {
    options: { dataDir: string; interactive: boolean }
    settings: SettingsStore
    projectSettings: ProjectSettingsFiles
    hub: EventHub
  },
  GateProvides
> = {
  name: 'gate',
  start({ options, settings, projectSettings, hub }) {
    // The shell parser loads in the background from here, so the first Shell call of a session
    // finds it ready; a call that comes sooner waits for it (bash-parser.ts).
    void warmBashParser()
    const rules = new RuleBook(
      settings,
      path.join(options.dataDir, 'trusted-project-rules.json'),
      projectSettings
    )
    const approver = options.interactive ? new InteractiveApprover(hub) : null
    return { provides: { rules, approver } }
  }
}
