// Stop: a reply in flight is cut short, the turn ends as stopped, and the next message works.
import { gate } from '../testing/fake-model-server'
import { expect, test } from './fixtures/app'
import { sendMessage, waitForTurnEnd } from './fixtures/chat'

test('Stop ends a streaming reply, and the session takes the next message', async ({
  page,
  app
}) => {
  // Held after its first words until the test is done with it, which is never: Stop ends it.
  const slow = 'This reply is held mid-stream so that there is time to press Stop before it ends.'
  app.fakeModel.setScript([{ text: slow, holdUntil: gate().opened }, { text: 'Back again.' }])
  await app.openFolder(page)
  await sendMessage(page, 'Tell me something long')

  // The first chunk is on screen, the rest is seconds away.
  await expect(page.getByTestId('message-assistant').last()).toContainText('This reply')
  await page.getByTestId('stop-button').click()
  await expect(page.getByTestId('turn-stopped')).toBeVisible()
  await waitForTurnEnd(page)
  await expect(page.getByTestId('message-assistant').last()).not.toContainText('before it ends.')

  await sendMessage(page, 'Still there?')
  await expect(page.getByTestId('message-assistant').last()).toContainText('Back again.')
  expect(app.fakeModel.exhaustedRequests()).toEqual([])
})
