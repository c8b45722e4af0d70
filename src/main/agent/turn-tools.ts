import type { SessionProfile } from '../../shared/session-profile'
import { Catalog } from '../tools/catalog'
import { disclosurePolicy, TOOL_SEARCH, toolSearchTool } from '../tools/discovery/tool-search'
import { mayBeReadOnly, type Tool } from '../tools/tool'

/**
 * The profile a child agent of a session gets. Sub-agents, parallel branches and team members
 * must create their sessions through this, so a `no-fs` parent's children are file-less too.
 */
export function childProfile(parent: SessionProfile): SessionProfile {
  return parent
}

/**
 * A session's whole catalog under its profile: what it may ever call. A `no-fs` session has no
 * tool that needs a folder (the file tools, Shell and its jobs, delegation that works on copies
 * of the folder, SkillDraft which writes into it): each tool says so itself (`needsFolder`).
 */
export function profileCatalog(full: Catalog, profile: SessionProfile): Catalog {
  // Always a copy: a turn registers ToolSearch into it, which must not reach the shared catalog.
  return new Catalog(full.list().filter((tool) => allowedIn(profile, tool)))
}

function allowedIn(profile: SessionProfile, tool: Tool): boolean {
  return profile === 'default' || !tool.needsFolder
}

export interface TurnToolsOptions {
  profile: SessionProfile
  planning: boolean
  /** The session's tools found with ToolSearch; it grows while the turn runs. */
  disclosed: Set<string>
  /** The `disclosable_tools` setting. */
  disclosable?: readonly string[]
}

export interface TurnTools {
  /** What calls may name: the profile's catalog, plus ToolSearch when some tools are held back. */
  catalog: Catalog
  /** What the model is sent, re-read before each request so a found tool joins the next one. */
  offered: Catalog
  /** Why a call by name is refused before the gate (a held-back or profile-excluded tool). */
  refuse: (name: string) => string | null
}

/** The tools of one turn of a session: its profile, its found tools and planning mode applied. */
export function turnTools(full: Catalog, options: TurnToolsOptions): TurnTools {
  const catalog = profileCatalog(full, options.profile)
  const held = disclosurePolicy(options.disclosable)
  const candidates = catalog.list().filter(held)
  if (candidates.length > 0 && !catalog.get(TOOL_SEARCH)) {
    catalog.register(toolSearchTool({ candidates: () => candidates, disclosed: options.disclosed }))
  }
  // Planning offers a tool whose calls can be read-only (Subagent, Parallel); the gate refuses
  // the calls of it that would change the folder.
  const visible = (tool: Tool): boolean =>
    (!held(tool) || options.disclosed.has(tool.name)) && (!options.planning || mayBeReadOnly(tool))
  const refuse = (name: string): string | null => {
    const excluded = full.get(name)
    if (excluded && !allowedIn(options.profile, excluded)) {
      return `${name} is not available: this session was started with the no-fs profile, which has no file, shell or delegation tools. Work from the conversation and the tools you were given.`
    }
    const tool = catalog.get(name)
    if (tool && held(tool) && !options.disclosed.has(name)) {
      return `${name} is not loaded yet: call ${TOOL_SEARCH} with words from its name or purpose first; it is then available from your next step.`
    }
    return null
  }
  return { catalog, offered: new FilteredCatalog(catalog, visible), refuse }
}

/** A live view of a catalog: listed sorted like any catalog, filtered when read. */
class FilteredCatalog extends Catalog {
  constructor(
    private readonly source: Catalog,
    private readonly keep: (tool: Tool) => boolean
  ) {
    super()
  }

  override get(name: string): Tool | undefined {
    const tool = this.source.get(name)
    return tool && this.keep(tool) ? tool : undefined
  }

  override list(): Tool[] {
    return this.source.list().filter(this.keep)
  }
}
