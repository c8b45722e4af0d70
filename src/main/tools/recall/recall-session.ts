import { z } from 'zod'
import type { TranscriptItem } from '../../../shared/domain'
import { defineTool, errorOutput, noCapabilities, outputText, textOutput, type Tool } from '../tool'

const inputSchema = z
  .object({
    query: z.string().trim().min(1, 'give words to look for'),
    limit: z.number().int().min(1).max(50).optional()
  })
  .strict()

const SNIPPET_RADIUS = 120

interface Entry {
  index: number
  label: string
  text: string
}

/**
 * `RecallSession`: the model searches what was already said and done in its own session (useful
 * once the start of a long conversation has scrolled out of view). Everything it returns has
 * been in this conversation before, so it brings in nothing new: no capabilities, no taint.
 */
export function recallSessionTool(
  transcriptOf: (sessionId: string) => TranscriptItem[] | null
): Tool {
  return defineTool({
    name: 'RecallSession',
    description:
      "Search this session's own history (the person's messages, your replies, and every tool call with its result) for all the given words, case-insensitively. Returns the most recent matches first, each with its position in the session and a snippet. Use it to find something said or seen earlier in this conversation; for notes kept across sessions use SearchMemory.",
    inputSchema,
    readOnly: true,
    capabilities: noCapabilities,
    source: 'builtin',
    async call(input, ctx) {
      const transcript = transcriptOf(ctx.sessionId)
      if (!transcript)
        return errorOutput('This call has no session whose history could be searched.')
      const words = input.query.toLowerCase().split(/\s+/).filter(Boolean)
      const hits = entries(transcript)
        .filter((entry) => {
          const text = entry.text.toLowerCase()
          return words.every((word) => text.includes(word))
        })
        .reverse()
      const limit = input.limit ?? 10
      if (hits.length === 0) {
        return textOutput(`Nothing in this session contains all of: ${words.join(', ')}.`)
      }
      const shown = hits.slice(0, limit).map((hit) => {
        return `#${hit.index} ${hit.label}\n${snippet(hit.text, words[0] ?? '')}`
      })
      const more = hits.length > limit ? `\n(${hits.length - limit} older matches not shown)` : ''
      return textOutput(`${shown.join('\n\n')}${more}`)
    }
  })
}

function entries(transcript: readonly TranscriptItem[]): Entry[] {
  const out: Entry[] = []
  transcript.forEach((item, index) => {
    if (item.kind === 'user') out.push({ index, label: 'person', text: item.text })
    if (item.kind === 'assistant' && item.text) out.push({ index, label: 'you', text: item.text })
    if (item.kind === 'tool' && item.call.output && item.call.name !== 'RecallSession') {
      const input = JSON.stringify(item.call.input) ?? ''
      const output = outputText(item.call.output.content)
      out.push({ index, label: `${item.call.name} ${input}`, text: `${input}\n${output}` })
    }
  })
  return out
}

function snippet(text: string, word: string): string {
  const at = Math.max(0, text.toLowerCase().indexOf(word))
  const start = Math.max(0, at - SNIPPET_RADIUS)
  const end = Math.min(text.length, at + word.length + SNIPPET_RADIUS)
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`
}
