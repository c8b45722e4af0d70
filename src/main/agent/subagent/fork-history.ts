import type { ChatMessage } from '../../providers/provider'
import { outputText } from '../../tools/tool'

/** What a forked child is told about the conversation it starts from. */
export const FORK_BRIEF =
  'You were forked from the other agent: the conversation before your task is its conversation so far, and the tool calls in it were its own. You have only the tools you were given now.'

/**
 * The parent's conversation so far, as a forked child starts from it. Tool calls and their
 * results are told in words rather than as tool messages: they were the parent's, made with
 * tools the child may not have (a provider refuses tool blocks in a request that offers no
 * tools, and a model offered tool calls it cannot make tends to try them). The parent's last
 * reply is still waiting for its calls' results (the fork is one of them), so only its text is
 * kept. Neighbouring messages of one role are joined, so roles still alternate.
 */
export function forkedHistory(history: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = []
  const add = (role: 'user' | 'assistant', text: string): void => {
    if (text.trim() === '') return
    const last = out.at(-1)
    if (last && last.role === role) {
      out[out.length - 1] = { ...last, text: `${last.text}\n\n${text}` }
    } else {
      out.push(role === 'user' ? { role, text } : { role, text, toolCalls: [] })
    }
  }
  history.forEach((message, index) => {
    if (message.role === 'user') return add('user', message.text)
    if (message.role === 'assistant') {
      const pending = index === history.length - 1
      const calls = pending
        ? []
        : message.toolCalls.map((call) => `[called ${call.name} with ${call.input || '{}'}]`)
      return add('assistant', [message.text, ...calls].filter(Boolean).join('\n'))
    }
    add(
      'user',
      message.results
        .map(
          (result) =>
            `[result of ${result.name}${result.isError ? ' (an error)' : ''}]\n${outputText(result.content)}`
        )
        .join('\n\n')
    )
  })
  return out
}
