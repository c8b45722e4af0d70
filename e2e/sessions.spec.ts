// Two sessions in one folder: each is listed and keeps its own transcript.
import { expect, test } from './fixtures/app'
import { sendMessage, waitForTurnEnd } from './fixtures/chat'

test('a second session in the same folder keeps its own transcript', async ({ page, app }) => {
  app.fakeModel.setScript([
    { text: 'Reply in the first session.' },
    { text: 'Reply in the second.' }
  ])
  await app.openFolder(page)

  await sendMessage(page, 'First session question')
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'Reply in the first session.'
  )
  await waitForTurnEnd(page)

  const sessions = page.getByTestId('session-item')
  const before = await sessions.count()
  await page.getByTestId('new-session-button').click()
  await expect(sessions).toHaveCount(before + 1)
  await expect(sessions.and(page.locator('[data-active="true"]'))).toHaveCount(1)
  // A fresh session shows an empty transcript.
  await expect(page.getByTestId('message-user')).toHaveCount(0)

  await sendMessage(page, 'Second session question')
  await expect(page.getByTestId('message-assistant').last()).toContainText('Reply in the second.')
  await waitForTurnEnd(page)
  await expect(page.getByTestId('message-user')).toHaveCount(1)

  // Sessions are titled after their first message; both stay listed.
  const first = sessions.filter({ hasText: 'First session question' })
  const second = sessions.filter({ hasText: 'Second session question' })
  await expect(first).toHaveAttribute('data-active', 'false')
  await expect(second).toHaveAttribute('data-active', 'true')
  await first.click()
  await expect(first).toHaveAttribute('data-active', 'true')
  await expect(second).toHaveAttribute('data-active', 'false')
  await expect(page.getByTestId('message-user')).toHaveCount(1)
  await expect(page.getByTestId('message-user')).toContainText('First session question')
  await expect(page.getByTestId('message-assistant')).toContainText('Reply in the first session.')

  await second.click()
  await expect(page.getByTestId('message-user')).toHaveCount(1)
  await expect(page.getByTestId('message-user')).toContainText('Second session question')

  // Each request carried only its own session's history.
  const [one, two] = app.fakeModel.chatRequests()
  expect(one?.messages.filter((m) => m.role === 'user').map((m) => m.text)).toEqual([
    'First session question'
  ])
  expect(two?.messages.filter((m) => m.role === 'user').map((m) => m.text)).toEqual([
    'Second session question'
  ])
  expect(app.fakeModel.exhaustedRequests()).toEqual([])
})
