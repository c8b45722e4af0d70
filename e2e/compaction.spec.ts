// A compaction asked for with the Compact tool shows as a divider in the transcript, which opens
// to the summary and the state carried along with it (the plan).
import { expect, test } from './fixtures/app'
import { sendMessage, waitForTurnEnd } from './fixtures/chat'

test('a compaction is marked in the transcript and opens to its summary', async ({ page, app }) => {
  app.fakeModel.setScript([
    {
      toolCalls: [
        { name: 'Todo', input: { items: [{ text: 'Tidy the notes', status: 'in_progress' }] } }
      ]
    },
    { text: 'Planned.' },
    { toolCalls: [{ name: 'Compact', input: {} }] },
    { text: 'The person planned to tidy the notes; nothing else happened yet.' },
    { text: 'Compacted.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Make a plan')
  await expect(page.getByTestId('message-assistant').last()).toContainText('Planned.')
  await waitForTurnEnd(page)

  await sendMessage(page, 'Now compact the conversation')
  await expect(page.getByTestId('message-assistant').last()).toContainText('Compacted.')
  await waitForTurnEnd(page)
  const divider = page.getByTestId('compaction')
  await expect(divider).toContainText('Earlier messages were summarised')
  await divider.locator('summary').click()
  const summary = page.getByTestId('compaction-summary')
  await expect(summary).toContainText('planned to tidy the notes')
  await expect(summary).toContainText('[>] Tidy the notes')
})
