// A long session, read back from the store after a restart, opens at its newest items with only
// what is on screen rendered; scrolling up renders older items as they come into view, and find
// reaches a hit that was not rendered at all.
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures/app'
import { waitForTurnEnd } from './fixtures/chat'

// It restarts the server to read the session back from the store: a server of its own.
test.use({ ownServer: true })

const mod = process.platform === 'darwin' ? 'Meta' : 'Control'
// A turn takes at most 50 model steps; each of these is a reply's text and a Read card.
const STEPS = 45

/** The transcript's rows in the page, and how many of them are on screen. */
async function rendered(page: Page): Promise<{ rows: number; onScreen: number; items: number }> {
  return page.getByTestId('transcript').evaluate((scroller) => {
    const view = scroller.getBoundingClientRect()
    const rows = [...scroller.querySelectorAll('.transcript__row')]
    const onScreen = rows.filter((row) => {
      const box = row.getBoundingClientRect()
      return box.bottom > view.top && box.top < view.bottom
    }).length
    return { rows: rows.length, onScreen, items: Number(scroller.getAttribute('data-items')) }
  })
}

test('a long recorded session opens at the bottom, scrolls up through older items, and find reaches the first message', async ({
  page,
  app
}) => {
  test.setTimeout(180_000)
  app.fakeModel.setScript([
    ...Array.from({ length: STEPS }, (_, i) => ({
      text: `Step ${i + 1} of the survey.`,
      toolCalls: [{ name: 'Read', input: { path: 'README.md' } }]
    })),
    { text: 'Survey done.' }
  ])
  await app.openFolder(page)
  await page.getByTestId('composer-input').fill('Survey the zebra notes, step by step')
  await page.getByTestId('send-button').click()
  await expect(page.getByTestId('message-assistant').last()).toContainText('Survey done.', {
    timeout: 90_000
  })
  await waitForTurnEnd(page)

  // Read back from the store, as after quitting and opening the app again.
  await app.restart()
  await app.openFolder(page)
  await page.getByTestId('session-item').filter({ hasText: 'zebra' }).click()
  const transcript = page.getByTestId('transcript')
  await expect.poll(async () => (await rendered(page)).items).toBeGreaterThan(STEPS * 2)
  await expect(page.getByTestId('message-assistant').last()).toContainText('Survey done.')
  await expect(page.getByTestId('message-assistant').last()).toBeInViewport()
  await expect(page.getByTestId('message-user')).toHaveCount(0)
  const atOpen = await rendered(page)
  expect(atOpen.rows).toBeLessThan(atOpen.items / 2)

  // Up a screen at a time: each screen shows rows, and the page never holds the whole session.
  const first = page.getByTestId('message-user').filter({ hasText: 'zebra notes' })
  for (let i = 0; i < 400 && (await first.count()) === 0; i++) {
    await transcript.evaluate((el) => el.scrollBy(0, -el.clientHeight * 0.8))
    await expect.poll(async () => (await rendered(page)).onScreen).toBeGreaterThan(0)
    expect((await rendered(page)).rows).toBeLessThan(atOpen.items / 2)
  }
  await expect(first).toBeInViewport()
  await expect(page.getByText('Jump to latest')).toBeVisible()
  await page.getByText('Jump to latest').click()
  await expect(page.getByTestId('message-assistant').last()).toBeInViewport()
  await expect(first).toHaveCount(0)

  // Find reaches the first message from the bottom, though it was not rendered.
  await page.keyboard.press(`${mod}+f`)
  await page.getByTestId('find-input').fill('zebra')
  await expect(page.getByTestId('find-count')).toHaveText('1 of 1')
  await expect(first).toBeInViewport()
})
