// The web tools' screens, photographed in both themes and checked with axe-core in both: a
// search backend tested in Settings, and a search and an opened page in the chat. What they do
// is proved by web-search.spec.ts.
import { latestToolResults } from '../../testing/fake-model-server'
import { expect, test } from '../fixtures/app'
import { openCard, sendMessage, toolCards, waitForTurnEnd } from '../fixtures/chat'
import { startFakeWeb } from '../fixtures/fake-web'

// The testing build of `serve`, whose WebOpen may reach the page served on 127.0.0.1.
test.use({ loopbackWeb: true })

test('a search backend tested in Settings, then a search and the page it opened', async ({
  page,
  app
}) => {
  const web = await startFakeWeb()
  try {
    app.fakeModel.setScript([
      {
        text: 'Searching the web.',
        toolCalls: [{ name: 'WebSearch', input: { query: 'why two tides a day' } }]
      },
      (req) => {
        const found = latestToolResults(req)[0]?.content ?? ''
        const handle = /\[(r\d+)\] Tides, explained/.exec(found)?.[1] ?? 'missing'
        return {
          text: 'Opening the first result.',
          toolCalls: [{ name: 'WebOpen', input: { handle } }]
        }
      },
      { text: 'The page says most coasts see two high tides a day.' }
    ])
    await app.openFolder(page)
    await page.getByTestId('settings-button').click()
    const section = page.getByTestId('search-section')
    await section.scrollIntoViewIfNeeded()
    await section.getByTestId('search-add-kind').selectOption('searxng')
    await section.getByTestId('search-add-button').click()
    await section
      .locator('[data-testid="search-backend"][data-kind="searxng"]')
      .getByTestId('search-backend-url')
      .fill(web.origin)
    await section.getByTestId('search-test-query').fill('tides')
    await section.getByTestId('search-test-button').click()
    await expect(section.getByTestId('search-test-results')).toContainText('2 results')
    await section.scrollIntoViewIfNeeded()
    await app.screenshot(page, 'web-01-search-settings')
    await page.getByTestId('provider-save-button').click()
    await expect(page.getByTestId('settings-save-status')).toHaveText('Saved')
    await page.getByTestId('settings-close').click()

    await sendMessage(page, 'Why are there two tides a day? Look it up.')
    await waitForTurnEnd(page)
    await openCard(page, 'WebSearch')
    await openCard(page, 'WebOpen')
    await toolCards(page, 'WebSearch').scrollIntoViewIfNeeded()
    await app.screenshot(page, 'web-02-search-and-open')
    await toolCards(page, 'WebOpen').scrollIntoViewIfNeeded()
    await app.screenshot(page, 'web-03-opened-page')
  } finally {
    await web.close()
  }
})
