// The window's meters: context of the model's window with the compaction mark, the session's
// cost and cached share in the header, tokens and cost under each turn, totals on the session
// row, and a price set in Settings → Prices that the next turn's cost is counted at.
import { expect, test } from './fixtures/app'
import { sendMessage, waitForTurnEnd } from './fixtures/chat'

// Wide enough for every figure in the header; at 1280 the cached share may give way (below).
test.use({ viewport: { width: 1440, height: 900 } })
// It restarts the server to read the totals back from the store: a server of its own.
test.use({ ownServer: true })

test('meters after a two-turn session with cached input', async ({ page, app }) => {
  app.fakeModel.setScript([
    { text: 'First answer.', usage: { input: 1200, output: 40, cached: 0 } },
    { text: 'Second answer.', usage: { input: 1300, output: 10, cached: 1200 } }
  ])
  await app.openFolder(page)

  await sendMessage(page, 'First question')
  await expect(page.getByTestId('message-assistant').last()).toContainText('First answer.')
  await waitForTurnEnd(page)

  // The fake model is in no price table: tokens only, under the turn and in the header.
  await expect(page.getByTestId('turn-usage').last()).toHaveText('1,200 in · 40 out · 0 cached')
  await expect(page.getByTestId('turn-cost')).toHaveCount(0)
  const meters = page.getByTestId('meters')
  await expect(meters.getByTestId('meter-cost')).toHaveText('no price')
  const context = meters.getByTestId('meter-context')
  await expect(context).toContainText('1.2k / 128k')
  await expect(context).toHaveAttribute('aria-valuemax', '128000')
  await expect(context).toHaveAttribute('aria-valuenow', '1200')
  // The compaction threshold (three quarters of the window) is marked on the bar.
  await expect(meters.getByTestId('meter-threshold')).toHaveAttribute('style', /left: 75%/)
  await expect(context).toHaveAttribute('aria-valuetext', /summarised past 96k/)

  // A price for the model, set in Settings, counts from the next turn.
  await page.getByTestId('settings-button').click()
  const prices = page.getByTestId('prices-section')
  await prices.scrollIntoViewIfNeeded()
  await expect(prices.getByTestId('price-providerId')).toHaveValue('fake')
  await prices.getByTestId('price-model').fill('fake-model')
  await prices.getByTestId('price-input').fill('abc')
  await prices.getByTestId('price-add').click()
  await expect(prices).toContainText('Give US dollars per million tokens')
  await prices.getByTestId('price-input').fill('10')
  await prices.getByTestId('price-output').fill('100')
  await prices.getByTestId('price-cacheRead').fill('1')
  await prices.getByTestId('price-add').click()
  // Added to the draft, listed at once, and written by the Save bar with the rest.
  await expect(prices.getByTestId('price-message')).toContainText(
    'fake-model at fake is priced once you save'
  )
  await expect(prices.getByTestId('price-override')).toHaveCount(1)
  await expect(page.getByTestId('settings-save-status')).toHaveText('Unsaved changes in Models')
  await page.getByTestId('provider-save-button').click()
  await expect(page.getByTestId('settings-save-status')).toHaveText('Saved')
  await expect(prices.getByTestId('price-override')).toContainText('$10')
  await page.getByTestId('settings-close').click()

  await sendMessage(page, 'Second question')
  await expect(page.getByTestId('message-assistant').last()).toContainText('Second answer.')
  await waitForTurnEnd(page)

  // 100 fresh input at $10, 1,200 cached at $1 and 10 output at $100 per million: $0.0032.
  await expect(page.getByTestId('turn-usage').last()).toHaveText('1,300 in · 10 out · 1,200 cached')
  await expect(page.getByTestId('turn-cost')).toHaveCount(1)
  await expect(page.getByTestId('turn-cost')).toHaveText('· $0.0032')
  await expect(meters.getByTestId('meter-cost')).toHaveText('$0.0032')
  await expect(meters.getByTestId('meter-cost')).toHaveAttribute('title', /1 turn not counted/)
  // 1,200 of the session's 2,500 input tokens came from the cache.
  await expect(meters.getByTestId('meter-cache')).toHaveText('48% cached')
  await expect(meters.getByTestId('meter-cache')).toBeVisible()
  await expect(context).toContainText('1.3k / 128k')
  // In a narrower window the header gives way a step at a time (header-fit.ts), the meters with
  // it: it stays one row, the cost stays, and the cost's tooltip still gives the cached share.
  await page.setViewportSize({ width: 1280, height: 800 })
  const header = page.locator('.chat__header')
  await expect
    .poll(() => header.evaluate((el) => el.scrollWidth <= el.clientWidth + 0.5))
    .toBe(true)
  await expect(meters.getByTestId('meter-cost')).toBeVisible()
  await expect(meters.getByTestId('meter-context')).toBeVisible()
  await expect(meters.getByTestId('meter-cost')).toHaveAttribute('title', /48% cached of its input/)
  await page.setViewportSize({ width: 1440, height: 900 })

  // The session row's totals come from main's summary: the priced cost with a "+" for the turn
  // that had no price, and both turns' tokens (2,500 in and 50 out).
  const row = page.getByTestId('session-item').filter({ hasText: 'First question' })
  await expect(row.getByTestId('session-totals')).toHaveText('· $0.0032+ · 2.6k tokens')

  // After a restart the session is no longer in memory: the list sums its recorded turn ends.
  await app.restart()
  await page.goto(app.url)
  await app.openFolder(page)
  const stored = page.getByTestId('session-item').filter({ hasText: 'First question' })
  await expect(stored.getByTestId('session-totals')).toHaveText('· $0.0032+ · 2.6k tokens')
  await stored.click()
  await expect(page.getByTestId('turn-cost')).toHaveText('· $0.0032')
  // The latest request's size is known only once a model answers again in this run.
  await expect(page.getByTestId('meter-context')).toContainText('– / 128k')
  await expect(page.getByTestId('meter-cost')).toHaveText('$0.0032')
  expect(app.fakeModel.exhaustedRequests()).toEqual([])
})
