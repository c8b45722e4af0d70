// A question the model is waiting on survives a reload of the window: nothing is lost.
import { expect, test } from './fixtures/app'
import { readWorkspaceFile, sendMessage, toolCards, waitForTurnEnd } from './fixtures/chat'

test('a pending approval is shown again after the page reloads, and still works', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    { toolCalls: [{ name: 'Write', input: { path: 'kept.txt', content: 'still here\n' } }] },
    { text: 'Written after the reload.' }
  ])
  await page.goto(app.url)
  await app.openFolder(page)
  await sendMessage(page, 'Write kept.txt')
  await expect(page.getByTestId('approval-modal')).toBeVisible()

  await page.reload()
  const modal = page.getByTestId('approval-modal')
  await expect(modal).toBeVisible()
  await expect(modal).toContainText('kept.txt')
  await page.getByTestId('approval-allow').click()
  await expect(modal).toBeHidden()
  await expect(toolCards(page, 'Write')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'Written after the reload.'
  )
  await waitForTurnEnd(page)
  expect(readWorkspaceFile(app.workspace, 'kept.txt')).toBe('still here\n')
})
