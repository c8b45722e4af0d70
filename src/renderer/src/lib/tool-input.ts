/** A string field of a tool's input, if the input is an object that has it. */
export function inputString(input: unknown, ...names: string[]): string | null {
  if (!input || typeof input !== 'object') return null
  const record = input as Record<string, unknown>
  for (const name of names) {
    const value = record[name]
    if (typeof value === 'string' && value) return value
  }
  return null
}

export function inputNumber(input: unknown, name: string): number | null {
  if (!input || typeof input !== 'object') return null
  const value = (input as Record<string, unknown>)[name]
  return typeof value === 'number' ? value : null
}

/** Lines as an editor counts them: a final newline ends the last line, it does not start one. */
export function lineCount(text: string): number {
  if (text === '') return 0
  const lines = text.split('\n').length
  return text.endsWith('\n') ? lines - 1 : lines
}

/** A Todo call in a few words: "4 steps · 1 done · now: Write the tests", or the plan cleared. */
function todoSummary(input: unknown): string | null {
  const items = input && typeof input === 'object' ? (input as { items?: unknown }).items : null
  if (!Array.isArray(items)) return null
  if (items.length === 0) return 'cleared the plan'
  const statuses = items.map((item: unknown) => inputString(item, 'status'))
  const done = statuses.filter((s) => s === 'done').length
  const current = items.find((item: unknown) => inputString(item, 'status') === 'in_progress')
  const now = current ? inputString(current, 'text') : null
  const steps = `${items.length} step${items.length === 1 ? '' : 's'} · ${done} done`
  return now ? `${steps} · now: ${now}` : steps
}

const summaryKeys = [
  'path',
  'file_path',
  'command',
  'url',
  'query',
  'pattern',
  'name',
  'question',
  'task'
]

/** One line about a tool call's key arguments: the path for file tools, else the telling field. */
export function toolSummary(tool: string, input: unknown): string {
  const path = inputString(input, 'path', 'file_path')
  switch (tool) {
    case 'Read': {
      const offset = inputNumber(input, 'offset')
      const limit = inputNumber(input, 'limit')
      if (!path) break
      if (offset && offset > 1 && limit) return `${path} · lines ${offset}–${offset + limit - 1}`
      if (offset && offset > 1) return `${path} · from line ${offset}`
      return path
    }
    case 'Write': {
      const content = inputString(input, 'content') ?? ''
      const lines = lineCount(content)
      if (path) return `${path} · ${lines} line${lines === 1 ? '' : 's'}`
      break
    }
    case 'ListDir':
      return path ?? '.'
    case 'Skill':
      return inputString(input, 'name') ?? 'list the skills'
    case 'Parallel': {
      const tasks = input && typeof input === 'object' ? (input as { tasks?: unknown }).tasks : null
      const mode = inputString(input, 'mode') ?? 'join'
      if (Array.isArray(tasks)) return `${tasks.length} branches · ${mode}`
      break
    }
    case 'Todo': {
      const plan = todoSummary(input)
      if (plan !== null) return plan
      break
    }
  }
  const telling = path ?? inputString(input, ...summaryKeys)
  if (telling) return telling.split('\n')[0] ?? telling
  if (input === undefined || input === null) return ''
  const json = JSON.stringify(input) ?? ''
  return json === '{}' ? '' : json.length > 120 ? `${json.slice(0, 117)}…` : json
}
