// Extended thinking in the window: the reply's thinking sits above it, collapsed under
// "Thinking", opens on a click, and went back to the (fake) Anthropic API across the tool call.
import { readFileSync } from 'node:fs'
import { fakeSignature } from '../testing/fake-model-thinking'
import { expect, test } from './fixtures/app'
import { sendMessage, toolCards, waitForTurnEnd } from './fixtures/chat'

const thought =
  'The person asks what the README says. Reading it is cheaper than guessing, and Read needs no approval.'

test.use({ settingsPreset: 'fake-anthropic' })

test('thinking is shown collapsed on the reply and carried back across a tool call', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    {
      thinking: [thought],
      text: 'Let me read the README.',
      toolCalls: [{ name: 'Read', input: { path: 'README.md' } }]
    },
    { thinking: ['It is the sample project.'], text: 'The README describes a sample project.' }
  ])

  await app.openFolder(page)
  // Chosen in the model picker: saved into the settings file for this model, used next turn.
  const picker = page.getByTestId('reasoning-picker')
  await expect(picker).toHaveValue('off')
  await picker.selectOption('budget:4096')
  await expect(picker).toHaveValue('budget:4096')
  expect(readFileSync(app.settingsFile, 'utf8')).toContain('thinking_budget: 4096')
  await sendMessage(page, 'What does the README say?')
  await expect(toolCards(page, 'Read')).toHaveAttribute('data-state', 'done')
  await waitForTurnEnd(page)

  const blocks = page.getByTestId('thinking')
  await expect(blocks).toHaveCount(2)
  // Collapsed: the summary shows, the thinking itself does not.
  await expect(blocks.first().locator('summary')).toHaveText('Thinking')
  await expect(blocks.first().getByTestId('thinking-text')).toBeHidden()

  await blocks.first().locator('summary').click()
  await expect(blocks.first().getByTestId('thinking-text')).toHaveText(thought)

  const bodies = app.fakeModel.requests.filter((r) => r.path.endsWith('/v1/messages'))
  expect(bodies[0]?.body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 4096 } })
  const second = app.fakeModel.requests.filter((r) => r.path.endsWith('/v1/messages'))[1]
  const body = second?.body as { messages: { role: string; content: unknown[] }[] }
  const assistant = body.messages.find((m) => m.role === 'assistant')
  expect(assistant?.content[0]).toEqual({
    type: 'thinking',
    thinking: thought,
    signature: fakeSignature(thought)
  })
})
