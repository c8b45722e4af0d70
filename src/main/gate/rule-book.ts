import { createHash } from 'node:crypto'
import { mkdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import YAML from 'yaml'
import { RpcError } from '../../shared/contract'
import type { RuleScope, RulesView } from '../../shared/approvals'
import { permissionRuleSchema, projectSettingsSchema, describeIssues } from '../../shared/settings'
import { projectSettingsPath, type ProjectSettingsFiles } from '../settings/project-settings'
import { settingsBlocked, type SettingsStore } from '../settings/settings-store'
import { settingsHealth, SettingsBlockedError } from '../settings/settings-health'
import { writeFileAtomic } from '../workspace/atomic-write'
import { checkRuleExamples, type PermissionRule } from './rules'

export interface RuleTarget {
  workspace: string
  /** The session's own rules, for the `session` scope. */
  sessionRules?: PermissionRule[]
}

/**
 * The permission rules of every scope: this session (memory), this project (its settings file)
 * and everywhere (the user's settings). A project file's `allow` rules apply only once the person
 * has seen them: a cloned repository cannot allow itself anything. Its `forbid` and `prompt`
 * rules only narrow, so they always apply.
 */
export class RuleBook {
  private trusted: Record<string, string> | null = null

  constructor(
    private readonly settings: SettingsStore,
    private readonly trustFile: string,
    private readonly projects: ProjectSettingsFiles
  ) {}

  /**
   * The rules in force for a call in this workspace, strictest scope first. A settings file that
   * is broken with no valid copy to fall back on throws: its forbid rules are unknown, so no call
   * may be judged without them.
   */
  async effective(target: RuleTarget): Promise<PermissionRule[]> {
    const loaded = this.settings.loaded()
    const project = await this.projectRules(target.workspace)
    if (settingsBlocked(loaded) || project.blocked) {
      throw new SettingsBlockedError(
        await settingsHealth(this.settings, this.projects, target.workspace)
      )
    }
    const user = loaded.settings.permissions.rules
    const usable = project.trusted
      ? project.rules
      : project.rules.filter((r) => r.decision !== 'allow')
    return [...(target.sessionRules ?? []), ...usable, ...user]
  }

  async view(target: RuleTarget): Promise<RulesView> {
    const loaded = this.settings.loaded()
    const project = await this.projectRules(target.workspace)
    return {
      session: [...(target.sessionRules ?? [])],
      project: { path: project.path, rules: project.rules, trusted: project.trusted },
      user: { path: loaded.path, rules: loaded.settings.permissions.rules }
    }
  }

  async add(scope: RuleScope, raw: unknown, target: RuleTarget): Promise<RulesView> {
    const parsed = permissionRuleSchema.safeParse(raw)
    if (!parsed.success) {
      const issues = describeIssues(parsed.error)
      throw new RpcError('invalid_input', `the rule is not valid: ${issues[0]?.message}`, issues)
    }
    const rule = parsed.data
    const problems = await checkRuleExamples([rule])
    if (problems.length > 0) throw new RpcError('invalid_input', problems[0]?.message ?? 'bad rule')
    await this.change(scope, target, (rules) => [...rules, rule])
    return this.view(target)
  }

  async remove(scope: RuleScope, index: number, target: RuleTarget): Promise<RulesView> {
    await this.change(scope, target, (rules) => {
      if (index < 0 || index >= rules.length) {
        throw new RpcError('not_found', `there is no ${scope} rule number ${index + 1}`)
      }
      return rules.filter((_, i) => i !== index)
    })
    return this.view(target)
  }

  /** The person has read the project's rules and lets its `allow` rules apply. */
  async trustProject(target: RuleTarget): Promise<RulesView> {
    const project = await this.projectRules(target.workspace)
    await this.rememberTrust(target.workspace, project.rules)
    return this.view(target)
  }

  private async change(
    scope: RuleScope,
    target: RuleTarget,
    edit: (rules: PermissionRule[]) => PermissionRule[]
  ): Promise<void> {
    if (scope === 'session') {
      if (!target.sessionRules)
        throw new RpcError('invalid_input', 'a session rule needs a session')
      const next = edit([...target.sessionRules])
      target.sessionRules.splice(0, target.sessionRules.length, ...next)
    } else if (scope === 'user') {
      const loaded = this.settings.loaded()
      if (loaded.issues.length > 0) {
        throw new RpcError('conflict', `fix ${loaded.path} first: ${loaded.issues[0]?.message}`)
      }
      const raw = structuredClone((loaded.raw ?? {}) as Record<string, unknown>)
      const permissions = { ...((raw.permissions as object | undefined) ?? {}) } as Record<
        string,
        unknown
      >
      permissions.rules = edit([...loaded.settings.permissions.rules])
      raw.permissions = permissions
      const saved = await this.settings.save(raw)
      if (!saved.saved)
        throw new RpcError('invalid_input', saved.issues[0]?.message ?? 'not saved', saved.issues)
    } else {
      await this.changeProject(target.workspace, edit)
    }
  }

  private async changeProject(
    workspace: string,
    edit: (rules: PermissionRule[]) => PermissionRule[]
  ): Promise<void> {
    const file = projectSettingsPath(workspace)
    const loaded = await this.projects.load(workspace)
    if (loaded.issues.length > 0) {
      throw new RpcError('conflict', `fix ${file} first: ${loaded.issues[0]?.message}`)
    }
    // Edit the document, not a re-serialised object, so the person's comments survive.
    const text = await readFile(file, 'utf8').catch(() => '')
    const document = YAML.parseDocument(text)
    const rules = edit([...loaded.settings.permissions.rules])
    document.setIn(['permissions', 'rules'], rules)
    const checked = projectSettingsSchema.safeParse(document.toJS() ?? {})
    if (!checked.success)
      throw new RpcError('invalid_input', describeIssues(checked.error)[0]?.message ?? '')
    await mkdir(path.dirname(file), { recursive: true })
    await writeFileAtomic(file, document.toString())
    // Rules the person wrote through the app are rules the person has seen.
    await this.rememberTrust(workspace, rules)
  }

  private async projectRules(
    workspace: string
  ): Promise<{ path: string; rules: PermissionRule[]; trusted: boolean; blocked: boolean }> {
    const loaded = await this.projects.load(workspace)
    const rules = loaded.settings.permissions.rules
    const allows = rules.filter((r) => r.decision === 'allow')
    const trusted = allows.length === 0 || (await this.trust())[workspace] === hashRules(allows)
    return { path: loaded.path, rules, trusted, blocked: settingsBlocked(loaded) }
  }

  private async rememberTrust(workspace: string, rules: readonly PermissionRule[]): Promise<void> {
    const trust = { ...(await this.trust()) }
    trust[workspace] = hashRules(rules.filter((r) => r.decision === 'allow'))
    await mkdir(path.dirname(this.trustFile), { recursive: true })
    await writeFileAtomic(this.trustFile, JSON.stringify(trust, null, 2))
    this.trusted = trust
  }

  private async trust(): Promise<Record<string, string>> {
    if (this.trusted) return this.trusted
    try {
      const parsed: unknown = JSON.parse(await readFile(this.trustFile, 'utf8'))
      this.trusted = parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {}
    } catch {
      this.trusted = {}
    }
    return this.trusted
  }
}

function hashRules(rules: readonly PermissionRule[]): string {
  const canonical = rules.map((r) => [r.tool, r.command ?? null, r.decision])
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex')
}
