import type { Settings } from '../../shared/settings'
import { Catalog } from './catalog'
import type { Tool } from './tool'

/** The families of built-in tools a setting turns on and off. */
export type SwitchedFamily = 'shell' | 'userModel' | 'websearch' | 'skills'

/** Whether a family is on in these settings (the launch flags are applied on top). */
const settingFor: Record<SwitchedFamily, (settings: Settings) => boolean> = {
  shell: (s) => s.shell.enabled,
  userModel: (s) => s.user_model.enabled,
  websearch: (s) => s.websearch.enabled,
  skills: (s) => s.skills.enabled
}

export interface ToolSetOptions {
  /** Tools offered whatever the settings say (the file tools, Todo, memory of the project…). */
  always: readonly Tool[]
  /** Each switched family's tools, or how to make them for given settings (Shell's sandbox). */
  switched: Readonly<Record<SwitchedFamily, FamilyTools>>
  /**
   * Launch flags (`--no-shell`, `--websearch=off`…): a family switched off here stays off
   * whatever the settings say; one left on follows the settings.
   */
  launch?: Partial<Record<SwitchedFamily, boolean>>
  /**
   * Families whose tools depend on the folder a turn works in (the Skill tool lists that
   * folder's skills, and is left out where there are none): made for each turn's folder in place
   * of the family's `switched` tools, which stand for them where there is no folder.
   */
  inFolder?: Partial<Record<SwitchedFamily, (workspace: string) => Promise<readonly Tool[]>>>
  /** The settings in force right now, for the live view (`live()`). */
  settingsNow: () => Settings
  /**
   * What the tools' facts depend on (Shell's sandbox self-test), started if need be and waited
   * for: before `forWorkspace` makes them, and by a turn before it judges a call (`settle`).
   */
  prepare?: (settings: Settings) => Promise<unknown>
}

/** A family's tools: fixed, or made for the settings of each turn. */
export type FamilyTools = readonly Tool[] | ((settings: Settings) => readonly Tool[])

/**
 * Tools built from the settings themselves (the delegation tools: one per sub-agent profile,
 * Team with its configured crews), given the built-in tools they may hand to a child.
 */
export type SettingsTools = (settings: Settings, builtins: Catalog) => Tool[]

/** Switched families as made for one folder (see `inFolder`). */
type FolderFamilies = Partial<Record<SwitchedFamily, readonly Tool[]>>

/** The extra tools of a project folder (its MCP servers'). */
export type FolderTools = (workspace: string) => Promise<Tool[]>

/**
 * Every built-in tool, offered according to the settings of the moment: a switch turned off in
 * Settings takes its tools out of the next turn, and on again brings them back, with no restart.
 * Nothing is registered once at start and forgotten.
 */
export class ToolSet {
  private readonly always: Tool[]
  private fromSettings: SettingsTools = () => []
  private folderTools: FolderTools = async () => []
  /** Every name a built-in ever had here, so an MCP tool never takes one while it is off. */
  private readonly seen = new Set<string>()

  constructor(private readonly options: ToolSetOptions) {
    this.always = [...options.always]
    for (const tool of this.always) this.seen.add(tool.name)
    for (const family of Object.values(options.switched)) {
      if (typeof family !== 'function') for (const tool of family) this.seen.add(tool.name)
    }
  }

  /** A tool offered whatever the settings say, added once the part it needs exists. */
  add(tool: Tool): void {
    this.always.push(tool)
    this.seen.add(tool.name)
  }

  /** How the tools that come from the settings themselves are made (see SettingsTools). */
  fromSettingsBy(make: SettingsTools): void {
    this.fromSettings = make
  }

  /** Where a folder's own tools come from (its MCP servers). */
  folderToolsBy(tools: FolderTools): void {
    this.folderTools = tools
  }

  /** Whether a switched family is on under these settings and the launch flags. */
  enabled(family: SwitchedFamily, settings: Settings): boolean {
    return this.options.launch?.[family] !== false && settingFor[family](settings)
  }

  /**
   * The built-in tools these settings offer, as a new catalog (sorted when listed); `inFolder`
   * holds the families already made for one folder.
   */
  forSettings(settings: Settings, inFolder: FolderFamilies = {}): Catalog {
    const catalog = new Catalog(this.always)
    for (const [family, tools] of Object.entries(this.options.switched)) {
      const made =
        inFolder[family as SwitchedFamily] ??
        (typeof tools === 'function' ? tools(settings) : tools)
      for (const tool of made) this.seen.add(tool.name)
      if (!this.enabled(family as SwitchedFamily, settings)) continue
      for (const tool of made) catalog.register(tool)
    }
    for (const tool of this.fromSettings(settings, catalog)) {
      this.seen.add(tool.name)
      if (!catalog.get(tool.name)) catalog.register(tool)
    }
    return catalog
  }

  /** The built-in tools plus a project folder's MCP tools, under these settings. */
  async forWorkspace(workspace: string, settings: Settings): Promise<Catalog> {
    await this.settle(settings)
    return this.forTurn(workspace, settings)
  }

  /**
   * The same tools, made without waiting for what their facts depend on: a turn sends its first
   * request with them while Shell's sandbox is still being checked (Shell is described as it
   * will be once confined), and calls `settle` before it judges any call.
   */
  async forTurn(workspace: string, settings: Settings): Promise<Catalog> {
    const inFolder: FolderFamilies = {}
    for (const [family, make] of Object.entries(this.options.inFolder ?? {})) {
      if (this.enabled(family as SwitchedFamily, settings)) {
        inFolder[family as SwitchedFamily] = await make(workspace)
      }
    }
    const full = this.forSettings(settings, inFolder)
    const tools = await this.folderTools(workspace).catch(() => [])
    // Servers never shadow a tool (see the MCP supervisor); this only guards a late clash.
    for (const tool of tools) if (!full.get(tool.name)) full.register(tool)
    return full
  }

  /** Resolves once what the tools' facts depend on has answered, starting it if need be. */
  async settle(settings: Settings): Promise<void> {
    await this.options.prepare?.(settings)
  }

  /** The built-in tools under the settings in force now: a view that follows every change. */
  live(): Catalog {
    return new LiveCatalog(() => this.forSettings(this.options.settingsNow()))
  }

  /** Names MCP tools may not take: every built-in's, offered now or not. */
  reservedNames(): Set<string> {
    this.forSettings(this.options.settingsNow())
    return new Set(this.seen)
  }
}

/** A catalog read afresh from the settings in force each time it is asked. */
class LiveCatalog extends Catalog {
  constructor(private readonly current: () => Catalog) {
    super()
  }

  override register(): void {
    throw new Error('the live catalog follows the settings; add tools to the ToolSet instead')
  }

  override get(name: string): Tool | undefined {
    return this.current().get(name)
  }

  override list(): Tool[] {
    return this.current().list()
  }
}
