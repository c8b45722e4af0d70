// The window's layout on a laptop: the chat column keeps its width and its header one row with
// the plan and the job monitor open, the sidebar hides (button, Ctrl/Cmd+B, and by itself in a
// narrow window), opening a panel keeps the reading place, and the view keeps following a reply.
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures/app'
import { sendMessage, waitForTurnEnd } from './fixtures/chat'
import { box, expectRoomyChat } from './fixtures/layout-boxes'

/** Cmd on a Mac, Ctrl elsewhere, as the app reads it (Chromium here reports Linux). */
const mod = process.platform === 'darwin' ? 'Meta' : 'Control'

const plan = [
  { text: 'Read the project files', status: 'done' },
  { text: 'List what each folder is for', status: 'in_progress' },
  { text: 'Suggest a clearer layout', status: 'pending' }
]

/** A reply long enough to scroll several screens at any width. */
const longReply = Array.from(
  { length: 40 },
  (_, i) =>
    `Paragraph ${i + 1}. The sample project keeps its notes in notes/ and its code in src/; this ` +
    'line is long on purpose, so that a narrower column wraps it onto more rows than a wide one.'
).join('\n\n')

/** The bits of the transcript's scroller the growth test touches (this project has no DOM lib). */
interface Scroller {
  scrollTop: number
  scrollHeight: number
  firstElementChild: { insertAdjacentHTML(where: 'beforeend', html: string): void } | null
  querySelectorAll(selector: string): { forEach(each: (node: { remove(): void }) => void): void }
}

/** A plan in the panel, the job monitor open, and a long reply in the transcript. */
async function openBothPanels(page: Page, app: import('./fixtures/app').App): Promise<void> {
  app.fakeModel.setScript([
    { text: 'Here is my plan.', toolCalls: [{ name: 'Todo', input: { items: plan } }] },
    { text: longReply }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Tidy up the project layout')
  await waitForTurnEnd(page)
  await expect(page.getByTestId('todo-panel')).toBeVisible()
  await page.getByTestId('jobs-toggle').click()
}

test('at 1280×800 with the plan and the jobs open the chat keeps its width and one header row', async ({
  page,
  app
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await openBothPanels(page, app)
  await expect(page.getByTestId('job-monitor')).toBeVisible()
  await expectRoomyChat(page)
  // Both panels stay one click away: the one not shown is a tab of the same column.
  const tabs = page.getByTestId('panel-tab')
  await expect(tabs).toHaveCount(2)
  await page.getByTestId('panel-tab').filter({ hasText: 'Plan' }).click()
  await expect(page.getByTestId('todo-item')).toHaveCount(3)
  await expectRoomyChat(page)
})

test('at 900×700 the sidebar hides by itself, Ctrl/Cmd+B and the button bring it back', async ({
  page,
  app
}) => {
  await page.setViewportSize({ width: 900, height: 700 })
  await openBothPanels(page, app)
  await expect(page.getByTestId('sidebar')).toBeHidden()
  await expectRoomyChat(page)
  // The panels float over the conversation, but never over the message box.
  await expect(page.getByTestId('panel-dock')).toHaveAttribute('data-place', 'overlay')
  const dock = await box(page, '[data-testid="panel-dock"]')
  const composer = await box(page, '[data-testid="composer-input"]')
  expect(dock.y + dock.height).toBeLessThanOrEqual(composer.y)

  await page.keyboard.press(`${mod}+b`)
  await expect(page.getByTestId('sidebar')).toBeVisible()
  await expectRoomyChat(page)
  await page.keyboard.press(`${mod}+b`)
  await expect(page.getByTestId('sidebar')).toBeHidden()

  const toggle = page.getByTestId('sidebar-toggle')
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await toggle.click()
  await expect(page.getByTestId('sidebar')).toBeVisible()
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  await toggle.click()
  await expect(page.getByTestId('sidebar')).toBeHidden()

  // The shortcuts list names it.
  await page.keyboard.press(`${mod}+k`)
  await page.getByTestId('command-palette-input').fill('shortcuts')
  await page.getByTestId('command-palette-input').press('Enter')
  await expect(page.getByTestId('shortcuts-dialog')).toContainText('Show or hide the sidebar')
})

test('opening and closing a panel keeps the reading place', async ({ page, app }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  app.fakeModel.setScript([{ text: longReply }])
  await app.openFolder(page)
  await sendMessage(page, 'Describe the project at length')
  await waitForTurnEnd(page)

  const scroller = page.getByTestId('transcript')
  // Read from the middle: paragraph 20 at the top of the view.
  const target = page
    .getByTestId('message-assistant')
    .last()
    .locator('p', { hasText: 'Paragraph 20.' })
  await target.evaluate((el) => el.scrollIntoView({ block: 'start' }))
  await scroller.evaluate((el) => el.dispatchEvent(new Event('scroll')))
  const top = async (): Promise<number> => {
    const [t, s] = await Promise.all([
      box(page, 'p:has-text("Paragraph 20.")'),
      box(page, '[data-testid="transcript"]')
    ])
    return t.y - s.y
  }
  const before = await top()
  expect(before).toBeLessThan(40)

  // The job monitor opens beside the chat, which gets narrower and rewraps.
  await page.getByTestId('jobs-toggle').click()
  await expect(page.getByTestId('job-monitor')).toBeVisible()
  await expect.poll(top).toBeGreaterThan(before - 24)
  expect(Math.abs((await top()) - before)).toBeLessThan(24)
  await page.getByTestId('job-monitor-close').click()
  await expect(page.getByTestId('job-monitor')).toHaveCount(0)
  await expect.poll(async () => Math.abs((await top()) - before)).toBeLessThan(24)
})

test('the view keeps following when content grows before a scroll event lands', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([{ text: longReply }])
  await app.openFolder(page)
  await sendMessage(page, 'Describe the project at length')
  await waitForTurnEnd(page)
  const scroller = page.getByTestId('transcript')
  const gap = (): Promise<number> =>
    scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)
  await expect.poll(gap).toBeLessThan(2)

  // What a finished command does to the page: the view scrolls to the bottom, and before that
  // scroll's event is delivered the content grows again (a card's result laid out). The person
  // never scrolled up, so the view must stay at the bottom.
  await scroller.evaluate((node) => {
    const el = node as unknown as Scroller
    el.firstElementChild?.insertAdjacentHTML('beforeend', growth(120))
    el.scrollTop = el.scrollHeight
    el.firstElementChild?.insertAdjacentHTML('beforeend', growth(400))
    function growth(height: number): string {
      return `<div data-test-growth style="height: ${height}px"></div>`
    }
  })
  await expect.poll(gap).toBeLessThan(2)
  await scroller.evaluate((node) => {
    const el = node as unknown as Scroller
    el.querySelectorAll('[data-test-growth]').forEach((block) => block.remove())
  })
})
