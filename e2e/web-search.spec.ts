// Web search: configure a SearXNG-format backend (a fake served by this test) in Settings, run
// Test, then the fake model searches and opens a result whose page is served on loopback.
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { latestToolResults } from '../testing/fake-model-server'
import { expect, test } from './fixtures/app'
import { startFakeWeb } from './fixtures/fake-web'
import { sendMessage, toolCards, waitForTurnEnd } from './fixtures/chat'

// The testing build of `serve` lets WebOpen reach the page this test serves on 127.0.0.1; the
// app's own build has no way to (e2e/production-build.spec.ts checks it).
test.use({ loopbackWeb: true })

test('configure SearXNG in Settings, test it, and let the model search and open a result', async ({
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
      (req) => {
        const page = latestToolResults(req)[0]?.content ?? ''
        return {
          text:
            page.includes('two high\n') || page.includes('two high tides')
              ? 'The page says most coasts see two high tides a day.'
              : `The page did not say: ${page.slice(0, 200)}`
        }
      }
    ])
    await app.openFolder(page)
    await page.getByTestId('settings-button').click()
    const section = page.getByTestId('search-section')
    await section.scrollIntoViewIfNeeded()
    await expect(section.getByTestId('search-empty')).toBeVisible()

    await section.getByTestId('search-add-kind').selectOption('searxng')
    await section.getByTestId('search-add-button').click()
    const backend = section.locator('[data-testid="search-backend"][data-kind="searxng"]')
    await backend.getByTestId('search-backend-url').fill(web.origin)

    // Test runs the drafted chain before it is saved.
    await section.getByTestId('search-test-query').fill('tides')
    await section.getByTestId('search-test-button').click()
    const results = section.getByTestId('search-test-results')
    await expect(results).toContainText(`2 results from searxng (${web.origin})`)
    await expect(section.getByTestId('search-test-result').first()).toContainText(
      'Tides, explained'
    )
    expect(web.queries).toEqual(['tides'])
    await section.scrollIntoViewIfNeeded()

    // A backend that does not answer shows its failure, in one error naming it.
    await section.getByTestId('search-add-kind').selectOption('brave')
    await section.getByTestId('search-add-button').click()
    await section
      .locator('[data-testid="search-backend"][data-kind="brave"]')
      .getByTestId('search-backend-up')
      .click()
    await section.getByTestId('search-test-button').click()
    await expect(results).toContainText(
      '(after: brave: no key: set the environment variable BRAVE_API_KEY'
    )
    await section
      .locator('[data-testid="search-backend"][data-kind="brave"]')
      .getByTestId('search-backend-remove')
      .click()

    await page.getByTestId('provider-save-button').click()
    await expect(page.getByTestId('settings-save-status')).toHaveText('Saved')
    expect(parse(readFileSync(app.settingsFile, 'utf8'))).toMatchObject({
      websearch: { backends: [{ kind: 'searxng', url: web.origin }] }
    })

    await page.getByTestId('settings-close').click()
    await sendMessage(page, 'Why are there two tides a day? Look it up.')
    await waitForTurnEnd(page)
    await expect(page.getByTestId('message-assistant').last()).toContainText(
      'The page says most coasts see two high tides a day.'
    )
    expect(web.queries).toEqual(['tides', 'tides', 'why two tides a day'])

    const search = toolCards(page, 'WebSearch')
    await expect(search).toHaveAttribute('data-state', 'done')
    await search.locator('.tool-card__header').click()
    const resultsCard = search.getByTestId('web-results-view')
    await expect(resultsCard.getByTestId('external-badge')).toBeVisible()
    await expect(resultsCard.getByTestId('web-result')).toHaveCount(2)
    await expect(resultsCard.getByTestId('web-result-url').first()).toHaveText(
      `${web.origin}/tides`
    )

    const open = toolCards(page, 'WebOpen')
    await expect(open).toHaveAttribute('data-state', 'done')
    await open.locator('.tool-card__header').click()
    const pageCard = open.getByTestId('web-page-view')
    await expect(pageCard.getByTestId('external-badge')).toBeVisible()
    await expect(pageCard.getByTestId('web-page-url')).toHaveText(`${web.origin}/tides`)
    await expect(pageCard.getByTestId('web-page-text')).toContainText('# Tides')
    await expect(pageCard.getByTestId('web-page-text')).not.toContainText('pwned')
    // The session now holds untrusted input, and says so.
    await search.scrollIntoViewIfNeeded()
    await open.scrollIntoViewIfNeeded()
    expect(app.fakeModel.exhaustedRequests()).toEqual([])
  } finally {
    await web.close()
  }
})
