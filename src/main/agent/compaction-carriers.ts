import type { SessionSkills } from '../skills/session-skills'
import { planLines, planProgress, type TodoBoard } from '../tools/todo/todo-board'

/** What a carrier may read: the session's own state, as it is at the moment of compaction. */
export interface CarrierSource {
  readonly todos: TodoBoard
  readonly skills: SessionSkills
}

/**
 * State a tool hands to a compaction to be carried verbatim into the shortened conversation;
 * null when it has nothing to carry. It is called at the moment of compaction, so it reads the
 * state fresh rather than whatever an older summary said.
 */
export type CompactionCarrier = (session: CarrierSource) => string | null

export const CARRIED_OPEN = '<carried-state>'
export const CARRIED_CLOSE = '</carried-state>'

/** The carriers of a compaction, each under a name that labels its part of the carried block. */
export class CarrierRegistry {
  private readonly carriers = new Map<string, CompactionCarrier>()

  /** Adds a carrier; registering a name again replaces it, so there is one copy per name. */
  register(name: string, carrier: CompactionCarrier): void {
    this.carriers.set(name, carrier)
  }

  names(): string[] {
    return [...this.carriers.keys()]
  }

  /**
   * Every carrier's text in one delimited block, empty when none has anything. The block is
   * stripped from an older summary before it is summarised again (see compaction.ts), so only the
   * copy written now survives.
   */
  block(session: CarrierSource): string {
    const parts: string[] = []
    for (const [name, carrier] of this.carriers) {
      const text = carrier(session)?.trim()
      if (text) parts.push(`<state name="${name}">\n${text}\n</state>`)
    }
    if (parts.length === 0) return ''
    return [
      CARRIED_OPEN,
      'State carried verbatim from before the summary; it is current and replaces any older copy.',
      ...parts,
      CARRIED_CLOSE
    ].join('\n')
  }
}

/** The plan, so the model keeps working through it after a compaction. */
export const todoCarrier: CompactionCarrier = (session) => {
  const items = session.todos.items()
  if (items.length === 0) return null
  return `Your plan (${planProgress(items)}); keep it current with Todo:\n${planLines(items)}`
}

/** The loaded skills' full instructions: the Skill results that held them are summarised away. */
export const skillsCarrier: CompactionCarrier = (session) => {
  const skills = session.skills.list()
  if (skills.length === 0) return null
  return skills
    .map((skill) => `<skill name="${skill.name}">\n${skill.body.trim()}\n</skill>`)
    .join('\n')
}

/** The carriers every session's compactions use: the todo list and the loaded skills. */
export function defaultCarriers(): CarrierRegistry {
  const registry = new CarrierRegistry()
  registry.register('todo', todoCarrier)
  registry.register('skills', skillsCarrier)
  return registry
}
