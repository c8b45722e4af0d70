// Two changing calls in one model reply: both wait at once, as two rows of one approval dialog,
// and each gets its own answer.
import { latestToolResults } from '../testing/fake-model-server'
import { expect, test } from './fixtures/app'
import { plain, readWorkspaceFile, sendMessage, toolCards, waitForTurnEnd } from './fixtures/chat'

test('two calls of one reply are one dialog with a row each: one allowed, one denied', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    {
      text: 'Writing both files.',
      toolCalls: [
        { name: 'Write', input: { path: 'a.txt', content: 'a\n' } },
        { name: 'Write', input: { path: 'b.txt', content: 'b\n' } }
      ]
    },
    (req) => ({
      text: `Results: ${latestToolResults(req)
        .map((r) => plain(r.content))
        .join(' | ')}`
    })
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Write a.txt and b.txt')

  const modal = page.getByTestId('approval-modal')
  await expect(modal).toBeVisible()
  await expect(modal).toHaveAttribute('data-waiting', '2')
  await expect(modal).toHaveCount(1)
  const rows = page.getByTestId('approval-row')
  await expect(rows).toHaveCount(2)
  // In the order the model gave them.
  await expect(rows.nth(0)).toContainText('a.txt')
  await expect(rows.nth(1)).toContainText('b.txt')
  await expect(page.getByTestId('approval-allow-all')).toHaveText('Allow all 2')
  // Nothing runs while either waits.
  expect(readWorkspaceFile(app.workspace, 'a.txt')).toBeNull()

  await rows.filter({ hasText: 'b.txt' }).getByTestId('approval-row-deny').click()
  await expect(rows).toHaveCount(0)
  await expect(modal).toContainText('a.txt')
  await page.getByTestId('approval-allow').click()
  await expect(modal).toHaveCount(0)
  await waitForTurnEnd(page)

  const cards = toolCards(page, 'Write')
  await expect(cards).toHaveCount(2)
  await expect(cards.nth(0)).toHaveAttribute('data-state', 'done')
  await expect(cards.nth(1)).toHaveAttribute('data-state', 'denied')
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'The person denied this Write call.'
  )
  expect(readWorkspaceFile(app.workspace, 'a.txt')).toBe('a\n')
  expect(readWorkspaceFile(app.workspace, 'b.txt')).toBeNull()
})
