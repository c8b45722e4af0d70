// Memory: the model remembers something through its tools, and the person finds it in the memory
// browser, forgets it and takes the forget back, with the same version rule the tools follow.
import { expect, test } from './fixtures/app'
import { sendMessage, toolCards, waitForTurnEnd } from './fixtures/chat'

// The user model is the data directory's, shared by every folder: a server of its own, so the
// one note about the person found there is this test's.
test.use({ ownServer: true })

const buildNote = 'Build with `npm run build`, then run the tests with `npm test`.'

test('remember through the model → see it in the memory browser → forget → undo', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    {
      text: 'I will remember that, for this project and about you.',
      toolCalls: [
        { name: 'Remember', input: { name: 'build-and-test', content: buildNote } },
        {
          name: 'RememberUser',
          input: { name: 'answer-style', content: 'Prefers short answers with the command first.' }
        }
      ]
    },
    { text: 'Noted both.' }
  ])

  await app.openFolder(page)
  await sendMessage(page, 'Remember how this project is built, and that I like short answers')
  // Remembering is allowed by default, even in ask mode: nobody is asked (Forget would ask).
  await expect(toolCards(page, 'Remember')).toHaveAttribute('data-state', 'done')
  await expect(toolCards(page, 'RememberUser')).toHaveAttribute('data-state', 'done')
  await waitForTurnEnd(page)
  await expect(page.getByTestId('approval-modal')).toHaveCount(0)
  const receipt = app.fakeModel.lastToolResults().find((r) => r.name === 'Remember')?.content ?? ''
  const version = /version: ([\w-]+)/.exec(receipt)?.[1]
  expect(version).toBeTruthy()

  await page.getByTestId('settings-button').click()
  const section = page.getByTestId('memory-section')
  await section.scrollIntoViewIfNeeded()
  const item = section.getByTestId('memory-item').and(page.locator('[data-name="build-and-test"]'))
  await expect(item).toBeVisible()
  await item.click()
  const detail = section.getByTestId('memory-detail')
  await expect(detail.getByTestId('memory-content')).toHaveText(buildNote)
  // The version shown is the one the model's receipt gave: Forget and Undo act on it.
  await expect(detail.getByTestId('memory-version')).toHaveText(version ?? '')
  await expect(detail).toContainText('Remembered')

  // Search words are found with the last one as a prefix, and highlighted.
  await section.getByTestId('memory-search').fill('npm tes')
  await expect(section.getByTestId('memory-item')).toHaveCount(1)
  await expect(item.locator('mark').first()).toHaveText('npm')
  await section.getByTestId('memory-search').fill('kubernetes')
  await expect(section.getByTestId('memory-item')).toHaveCount(0)
  await expect(section.getByTestId('memory-list')).toContainText('Nothing matches')
  await section.getByTestId('memory-search').fill('')
  await expect(item).toBeVisible()

  await detail.getByTestId('memory-forget').click()
  await expect(detail.getByTestId('memory-confirm')).toContainText('Forget “build-and-test”?')
  await detail.getByTestId('memory-confirm-yes').click()
  await expect(detail.getByTestId('memory-state')).toHaveText('Forgotten')
  await expect(detail.getByTestId('memory-notice')).toHaveText(
    'Forgot “build-and-test”. Undo restores it.'
  )
  await expect(item).toHaveAttribute('data-state', 'forgotten')
  await expect(detail.getByTestId('memory-version')).not.toHaveText(version ?? '')

  await detail.getByTestId('memory-undo').click()
  await expect(detail.getByTestId('memory-confirm')).toContainText(
    'before it was forgotten? It will hold “Build with'
  )
  await detail.getByTestId('memory-confirm-yes').click()
  await expect(detail.getByTestId('memory-state')).toHaveText('Live')
  await expect(detail.getByTestId('memory-content')).toHaveText(buildNote)
  await expect(detail.getByTestId('memory-history').locator('li')).toHaveCount(3)
  await expect(item).toHaveAttribute('data-state', 'live')

  // The user model is shared by every project; the model's note about the person is there.
  await section.getByTestId('memory-scope-user').click()
  const userItem = section.getByTestId('memory-item')
  await expect(userItem).toHaveCount(1)
  await expect(userItem).toHaveAttribute('data-name', 'answer-style')
  await userItem.click()
  await expect(detail.getByTestId('memory-content')).toContainText('short answers')
  expect(app.fakeModel.exhaustedRequests()).toEqual([])
})
