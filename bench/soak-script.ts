// What the fake model says over the soak's long day, and the project folder it works in: turns
// of a few kinds in turn (one Read, a folded group of searches, a command, an edit, a plan), each
// followed by a streamed reply in Markdown with a highlighted code block, and a background job
// that floods its terminal.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Reply } from '../testing/fake-model-server'

/** Source files the Read and Grep calls go through. */
const MODULES = 12
/** Pause between streamed pieces, so the window draws a reply as it grows. */
const CHUNK_DELAY_MS = 4

/** The words that end turn `n`'s reply: the benchmark waits for them in the window. */
export function turnMarker(n: number): string {
  return `Turn ${n} done.`
}

/** Writes the files the turns read, search and edit into `workspace`. */
export async function writeSoakProject(workspace: string): Promise<void> {
  await mkdir(path.join(workspace, 'src'), { recursive: true })
  await mkdir(path.join(workspace, 'notes'), { recursive: true })
  for (let m = 0; m < MODULES; m++) {
    const lines = Array.from(
      { length: 60 },
      (_, i) => `export const value${m}_${i} = ${i} // used by the loader and the tests`
    )
    await writeFile(path.join(workspace, 'src', `module-${m}.ts`), lines.join('\n') + '\n')
  }
  await writeFile(path.join(workspace, 'notes', 'state.md'), '# State\n\nstate: A\n')
}

/** What the background job of a cycle prints before it goes quiet. */
export const FLOOD_BYTES = 8 * 1024 * 1024

/**
 * The background job of a cycle: a flood of coloured lines, as fast as the window takes them (the
 * job waits for its viewer's acknowledgements), then quiet like a watcher, until it is stopped.
 */
export function floodCommand(cycle: number): string {
  const line = `cycle ${cycle}: \\x1b[32mok\\x1b[0m building module 0123456789 abcdefghijklmnopqrstuvwxyz`
  return `yes $'${line}' | head -c ${FLOOD_BYTES}; echo 'watching for changes'; sleep 86400`
}

/** The model's first answer to the message that starts a cycle's flood. */
export function floodReply(cycle: number): Reply {
  return {
    text: 'Starting the watcher in the background.',
    toolCalls: [
      {
        name: 'Shell',
        input: { command: floodCommand(cycle), background: true, description: `Watch ${cycle}` }
      }
    ],
    chunkDelayMs: CHUNK_DELAY_MS
  }
}

/** The calls turn `n` makes, by its kind. */
function callsOf(n: number): NonNullable<Reply['toolCalls']> {
  const module = (k: number): string => `src/module-${(n + k) % MODULES}.ts`
  switch (n % 5) {
    case 0:
      return [{ name: 'Read', input: { path: module(0) } }]
    case 1:
      return [
        { name: 'Read', input: { path: module(1) } },
        { name: 'Read', input: { path: module(2) } },
        { name: 'Grep', input: { pattern: `value${n % MODULES}_1\\d` } }
      ]
    case 2:
      return [
        {
          name: 'Shell',
          input: {
            command: `for i in $(seq 1 40); do printf 'step %d of turn ${n}\\n' "$i"; done`,
            description: 'Run the build steps'
          }
        }
      ]
    case 3: {
      // The file says A and B by turns: each edit finds what the one before left.
      const [from, to] = Math.floor(n / 5) % 2 === 0 ? ['A', 'B'] : ['B', 'A']
      return [
        {
          name: 'Edit',
          input: { path: 'notes/state.md', old: `state: ${from}`, new: `state: ${to}` }
        }
      ]
    }
    default:
      return [
        {
          name: 'Todo',
          input: {
            items: [
              { text: `Read the modules for turn ${n}`, status: 'done' },
              { text: 'Write the summary', status: 'in_progress' },
              { text: 'Check the tests', status: 'pending' }
            ]
          }
        }
      ]
  }
}

/** The two answers of turn `n`: its calls with a word first, then the reply once they are done. */
export function turnReplies(n: number): [Reply, Reply] {
  return [
    {
      text: `Let me look at that for **turn ${n}**.`,
      toolCalls: callsOf(n),
      chunkDelayMs: CHUNK_DELAY_MS
    },
    {
      text: [
        `## What turn ${n} found`,
        '',
        `Module ${n % MODULES} exports \`value${n % MODULES}_*\`; it is used by:`,
        '',
        '- the loader, at start',
        '- the tests, in `src/*.test.ts`',
        '',
        '```ts',
        `export function load${n}(values: number[]): number {`,
        '  return values.reduce((sum, value) => sum + value, 0)',
        '}',
        '```',
        '',
        turnMarker(n)
      ].join('\n'),
      chunkDelayMs: CHUNK_DELAY_MS
    }
  ]
}
