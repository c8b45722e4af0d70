// A remote MCP server asks the person for input in the middle of a tool call (elicitation): the
// form shows as a dialog in the window, and what the person types goes to that server alone.
import { writeFileSync } from 'node:fs'
import { stringify } from 'yaml'
import { startRemoteMcpServer, type RemoteMcpServer } from '../testing/remote-mcp-server'
import { expect, settingsFor, test } from './fixtures/app'
import { sendMessage, toolCards, waitForTurnEnd } from './fixtures/chat'

let remote: RemoteMcpServer
test.beforeEach(async () => {
  remote = await startRemoteMcpServer({
    mode: 'streamable',
    ask: {
      form: {
        type: 'object',
        properties: {
          name: { type: 'string', title: 'Your name', description: 'As it goes on the badge' },
          team: {
            type: 'string',
            title: 'Team',
            oneOf: [
              { const: 'core', title: 'Core' },
              { const: 'web', title: 'Web' }
            ]
          },
          remote: { type: 'boolean', title: 'Works remotely', default: true }
        },
        required: ['name']
      }
    }
  })
})
test.afterEach(async () => {
  await remote.close()
})

test('a server asks for input mid-call: the form shows, and its answer reaches the server', async ({
  page,
  app
}) => {
  const base = settingsFor('fake-openai', app.fakeModel) as Record<string, unknown>
  writeFileSync(
    app.settingsFile,
    stringify({
      ...base,
      permissions: { mode: 'allow' },
      mcp: [{ name: 'badges', url: remote.url }]
    })
  )
  app.fakeModel.setScript([
    {
      text: 'Asking the badge server.',
      toolCalls: [{ name: 'mcp__badges__ask', input: { message: 'Who is the badge for?' } }]
    },
    {
      text: 'Printing it.',
      toolCalls: [{ name: 'mcp__badges__slow', input: { steps: 3 } }]
    },
    { text: 'The badge server has what it needs.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Print me a badge')

  const dialog = page.getByTestId('elicitation-dialog')
  await expect(dialog).toBeVisible({ timeout: 30_000 })
  await expect(dialog).toContainText('badges asks')
  await expect(dialog).toContainText('Who is the badge for?')
  await expect(dialog).toContainText(
    'What you type goes only to the badges MCP server; it is not added to the conversation.'
  )
  // The first field has the focus; submitting it empty is refused in place, naming the field.
  await expect(dialog.getByTestId('elicitation-field-name')).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(dialog.getByTestId('elicitation-error')).toHaveText(
    '“Your name” is required; fill it in.'
  )
  await dialog.getByTestId('elicitation-field-name').fill('Ada Lovelace')
  // The refusal was about the empty form: typing takes it away.
  await expect(dialog.getByTestId('elicitation-error')).toHaveCount(0)
  await dialog.getByTestId('elicitation-field-team').selectOption('web')
  await dialog.getByTestId('elicitation-submit').click()
  await expect(dialog).toBeHidden()

  const card = toolCards(page, 'mcp__badges__ask')
  await expect(card).toHaveAttribute('data-state', 'done')
  // The next call reports its progress, shown on its card while it runs.
  const slow = toolCards(page, 'mcp__badges__slow')
  const progress = slow.getByTestId('tool-progress')
  await expect(progress).toContainText('3 of 3')
  await expect(progress).toContainText('step 3')
  await expect(progress.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '3')
  remote.release()
  await expect(slow).toHaveAttribute('data-state', 'done')
  await expect(progress).toHaveCount(0)
  await waitForTurnEnd(page)
  await card.locator('.tool-card__header').click()
  const answer = { action: 'accept', content: { name: 'Ada Lovelace', team: 'web', remote: true } }
  await expect(card.getByTestId('tool-output')).toContainText(
    `server got: ${JSON.stringify(answer)}`
  )
  // The model saw the tool's result, never the form's exchange itself.
  const sent = JSON.stringify(app.fakeModel.chatRequests().at(-1)?.messages ?? [])
  expect(sent).not.toContain('What you type goes only')
  expect(app.fakeModel.exhaustedRequests()).toEqual([])
})
