// Retries in the window: a rate-limited request says how long it waits and why, with a Stop that
// ends the turn during the wait; once the wait is over the reply streams as usual.
import { expect, test } from './fixtures/app'
import { sendMessage, waitForTurnEnd } from './fixtures/chat'

const limited = (
  seconds: number
): { status: number; error: string; headers: Record<string, string> } => ({
  status: 429,
  error: 'rate limited by the fake model',
  headers: { 'retry-after': String(seconds), 'x-should-retry': 'true' }
})

test('a 429 shows "Retrying in N s (rate limited)…", and Stop ends the wait', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([limited(30), { text: 'Never sent.' }])
  await app.openFolder(page)
  await sendMessage(page, 'Hello')

  const notice = page.getByTestId('retry-notice')
  await expect(notice).toContainText(/Retrying in (30|29|28) s \(rate limited\)…/)
  await expect(notice).toContainText('retry 1 of 4')
  await page.getByTestId('retry-stop').click()
  await expect(page.getByTestId('turn-stopped')).toBeVisible()
  await waitForTurnEnd(page)
  await expect(notice).toHaveCount(0)
  // Stopped in the wait: the scripted reply was never asked for.
  expect(app.fakeModel.chatRequests()).toHaveLength(1)
})

test('after the wait the reply streams as usual', async ({ page, app }) => {
  app.fakeModel.setScript([limited(2), { text: 'Here after the wait.' }])
  await app.openFolder(page)
  await sendMessage(page, 'Hello')
  await expect(page.getByTestId('retry-notice')).toContainText('(rate limited)…')
  await expect(page.getByTestId('message-assistant').last()).toContainText('Here after the wait.')
  await waitForTurnEnd(page)
  await expect(page.getByTestId('retry-notice')).toHaveCount(0)
  expect(app.fakeModel.exhaustedRequests()).toEqual([])
})
