// Reading a tool call's input as the window shows it: whatever the model sent, which may not
// have passed the tool's schema, so nothing here assumes a shape.

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

const tellingKeys = [
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

/**
 * One line about a call's key arguments: its path, else the first telling field, else compact
 * JSON. What a card shows for a tool that says nothing more particular about its calls.
 */
export function keyArgument(input: unknown): string {
  const telling = inputString(input, ...tellingKeys)
  if (telling) return telling.split('\n')[0] ?? telling
  if (input === undefined || input === null) return ''
  let json: string
  try {
    json = JSON.stringify(input) ?? ''
  } catch {
    // Nested past what the stack holds, or a cycle: the card must still have a line.
    return '(arguments too deeply nested to show)'
  }
  return json === '{}' ? '' : json.length > 120 ? `${json.slice(0, 117)}…` : json
}
