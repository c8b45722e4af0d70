import { AppearanceSection } from '../appearance'
import { CheckpointsSection } from '../checkpoints'
import { McpSection } from '../mcp'
import { MemorySection } from '../memory'
import { PricesSection } from '../meters'
import { NotificationsSection } from '../notifications'
import { PermissionRules, SandboxSettings } from '../permissions'
import { SkillsSection } from '../skills'
import { SearchSection } from '../web'

/**
 * The sections other features lay into the Settings page. Each face hands its own out as a chunk
 * of its own (ui/lazy-section.tsx); the page renders them from here, and its loader loads them all
 * alongside the page itself (loadFeatureSections) and shows the page once they are all there, so
 * none pops in after it.
 */
export const featureSections = {
  PermissionRules,
  SandboxSettings,
  PricesSection,
  CheckpointsSection,
  McpSection,
  SearchSection,
  MemorySection,
  SkillsSection,
  AppearanceSection,
  NotificationsSection
}

/** Loads every feature's section; resolves once each has arrived or failed to. */
export async function loadFeatureSections(): Promise<void> {
  await Promise.all(Object.values(featureSections).map((section) => section.load()))
}
