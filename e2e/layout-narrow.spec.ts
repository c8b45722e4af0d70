// The window narrower than a sidebar and a 560 px chat (shell/layout-model.ts): the sidebar hides
// by itself and, asked for, comes over the chat instead of squeezing it; a side panel with no
// room beside the chat floats over it with a scrim and goes on Escape or a click beside it; and
// at every one of these widths the header stays one row, the message box shows whole and nothing
// reaches past the window's edge.
import type { Page } from '@playwright/test'
import { gate } from '../testing/fake-model-server'
import { expect, test, type App } from './fixtures/app'
import { sendMessage, waitForTurnEnd } from './fixtures/chat'
import { box, expectOneRowHeader, expectRoomyChat, overflowing } from './fixtures/layout-boxes'

/** Cmd on a Mac, Ctrl elsewhere, as the app reads it (Chromium here reports Linux). */
const mod = process.platform === 'darwin' ? 'Meta' : 'Control'

const reply = Array.from(
  { length: 12 },
  (_, i) =>
    `Paragraph ${i + 1}. The sample project keeps its notes in notes/ and its code in src/; this ` +
    'line is long on purpose, so that a narrower column wraps it onto more rows than a wide one.'
).join('\n\n')

const plan = [
  { text: 'Read the project files', status: 'done' },
  { text: 'List what each folder is for', status: 'in_progress' },
  { text: 'Suggest a clearer layout', status: 'pending' }
]

async function openConversation(page: Page, app: App, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 700 })
  app.fakeModel.setScript([{ text: reply }])
  await app.openFolder(page)
  await sendMessage(page, 'Describe the project')
  await waitForTurnEnd(page)
}

/** The message box and its Send button inside the window, whole. */
async function expectComposerWhole(page: Page, width: number): Promise<void> {
  for (const part of [
    '.composer',
    '[data-testid="composer-input"]',
    '[data-testid="send-button"]'
  ]) {
    const found = await box(page, part)
    expect(found.x, part).toBeGreaterThanOrEqual(0)
    expect(found.x + found.width, part).toBeLessThanOrEqual(width + 0.5)
    expect(found.y + found.height, part).toBeLessThanOrEqual(700 + 0.5)
  }
}

for (const width of [760, 640]) {
  test(`at ${width}×700 the sidebar comes over the chat and goes on Escape or a click beside it`, async ({
    page,
    app
  }) => {
    await openConversation(page, app, width)
    const sidebar = page.getByTestId('sidebar')
    const project = page.locator('.project')
    // Hidden by itself: the whole window is the conversation.
    await expect(sidebar).toBeHidden()
    await expect(project).toHaveAttribute('data-sidebar', 'hidden')
    const chat = await box(page, 'section.chat')
    expect(chat.x).toBeLessThanOrEqual(0.5)
    expect(chat.width).toBeGreaterThanOrEqual(width - 0.5)
    await expectRoomyChat(page)
    await expectComposerWhole(page, width)
    expect(await overflowing(page)).toEqual([])

    // Ctrl/Cmd+B: over the chat, which keeps its place and width underneath.
    await page.keyboard.press(`${mod}+b`)
    await expect(sidebar).toBeVisible()
    await expect(project).toHaveAttribute('data-sidebar', 'overlay')
    const side = await box(page, '[data-testid="sidebar"]')
    const under = await box(page, 'section.chat')
    expect(under.x).toBe(chat.x)
    expect(under.width).toBe(chat.width)
    expect(side.x).toBeLessThanOrEqual(0.5)
    expect(side.x + side.width).toBeLessThan(width)
    await expect(page.getByTestId('sidebar-toggle')).toHaveAttribute('aria-expanded', 'true')
    expect(await overflowing(page)).toEqual([])
    await page.keyboard.press('Escape')
    await expect(sidebar).toBeHidden()

    // The button: the same, and a click on the conversation beside it puts it away.
    await page.getByTestId('sidebar-toggle').click()
    await expect(sidebar).toBeVisible()
    await expect(project).toHaveAttribute('data-sidebar', 'overlay')
    await page.mouse.click(width - 40, 350)
    await expect(sidebar).toBeHidden()
    await expect(page.getByTestId('sidebar-toggle')).toHaveAttribute('aria-expanded', 'false')
    await expectOneRowHeader(page)
    await expectComposerWhole(page, width)

    // Settings picked from it: the sidebar goes, and does not stay over the settings screen.
    await page.getByTestId('sidebar-toggle').click()
    await page.getByTestId('settings-button').click()
    await expect(page.getByTestId('settings-screen')).toBeVisible()
    await expect(sidebar).toBeHidden()
    expect(await overflowing(page)).toEqual([])
  })
}

test('at 900×700 a panel with no room beside the chat floats over it and goes on Escape or a click beside it', async ({
  page,
  app
}) => {
  await page.setViewportSize({ width: 900, height: 700 })
  app.fakeModel.setScript([
    { text: 'Here is my plan.', toolCalls: [{ name: 'Todo', input: { items: plan } }] },
    { text: reply }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Tidy up the project layout')
  await waitForTurnEnd(page)
  // The plan alone fits beside the chat, which keeps 560 px.
  await expect(page.locator('.project')).toHaveAttribute('data-panels', 'beside')
  await expect(page.getByTestId('panel-scrim')).toHaveCount(0)
  expect((await box(page, 'section.chat')).width).toBeGreaterThanOrEqual(560)

  await page.getByTestId('jobs-toggle').click()
  const dock = page.getByTestId('panel-dock')
  await expect(dock).toHaveAttribute('data-place', 'overlay')
  // The transcript keeps its whole width under the dock, and what the dock does not cover is
  // dimmed, so it is plain the panel is on top and a click there puts it away.
  const transcript = await box(page, '[data-testid="transcript"]')
  expect(transcript.width).toBeGreaterThanOrEqual(560)
  const scrim = await box(page, '[data-testid="panel-scrim"]')
  const docked = await box(page, '[data-testid="panel-dock"]')
  const header = await box(page, '.chat__header')
  const composer = await box(page, '[data-testid="composer-input"]')
  expect(scrim.x).toBeLessThanOrEqual(transcript.x + 0.5)
  expect(scrim.x + scrim.width).toBeGreaterThanOrEqual(docked.x - 0.5)
  expect(scrim.y).toBeGreaterThanOrEqual(header.y + header.height - 0.5)
  // The header's buttons and the message box stay in reach.
  expect(docked.y).toBeGreaterThanOrEqual(header.y + header.height - 0.5)
  expect(scrim.y + scrim.height).toBeLessThanOrEqual(composer.y)
  expect(docked.y + docked.height).toBeLessThanOrEqual(composer.y)
  await expectRoomyChat(page)
  expect(await overflowing(page)).toEqual([])

  // Escape: the job monitor closes and the plan folds to its rail, beside the chat again.
  await page.keyboard.press('Escape')
  await expect(dock).toHaveCount(0)
  await expect(page.getByTestId('panel-scrim')).toHaveCount(0)
  await expect(page.getByTestId('job-monitor')).toHaveCount(0)
  await expect(page.getByTestId('todo-toggle')).toHaveAttribute('aria-expanded', 'false')
  await expect(page.locator('.project')).toHaveAttribute('data-panels', 'beside')

  // The job monitor alone is wider than the room beside the chat: it floats too, and a click on
  // the conversation beside it closes it.
  await page.getByTestId('jobs-toggle').click()
  await expect(dock).toHaveAttribute('data-place', 'overlay')
  await page.mouse.click(transcript.x + 40, transcript.y + 120)
  await expect(page.getByTestId('job-monitor')).toHaveCount(0)
  await expect(page.getByTestId('panel-scrim')).toHaveCount(0)
  // Its own close button is the third way out.
  await page.getByTestId('jobs-toggle').click()
  await expect(dock).toHaveAttribute('data-place', 'overlay')
  await page.getByTestId('job-monitor-close').click()
  await expect(page.getByTestId('job-monitor')).toHaveCount(0)
})

test('at 760×700 a plan the model makes waits on its rail, and opened floats until Escape', async ({
  page,
  app
}) => {
  await page.setViewportSize({ width: 760, height: 700 })
  app.fakeModel.setScript([
    { text: 'Here is my plan.', toolCalls: [{ name: 'Todo', input: { items: plan } }] },
    { text: reply }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Tidy up the project layout')
  await waitForTurnEnd(page)
  // Nothing covers the reply: the plan is its rail beside the chat, showing the progress.
  const toggle = page.getByTestId('todo-toggle')
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await expect(toggle).toContainText('1/3')
  await expect(page.getByTestId('panel-dock')).toHaveCount(0)
  await expect(page.getByTestId('panel-scrim')).toHaveCount(0)
  expect((await box(page, 'section.chat')).width).toBeGreaterThanOrEqual(760 - 44 - 0.5)

  // Asked for, it floats over the chat with the rest dimmed, and Escape folds it again.
  await toggle.click()
  await expect(page.getByTestId('panel-dock')).toHaveAttribute('data-place', 'overlay')
  await expect(page.getByTestId('todo-item')).toHaveCount(3)
  await expect(page.getByTestId('panel-scrim')).toBeVisible()
  await expectOneRowHeader(page)
  await expectComposerWhole(page, 760)
  expect(await overflowing(page)).toEqual([])
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('panel-dock')).toHaveCount(0)
  await expect(page.getByTestId('todo-toggle')).toHaveAttribute('aria-expanded', 'false')
})

test('Escape over a floating panel puts the panel away and leaves the running turn alone', async ({
  page,
  app
}) => {
  await page.setViewportSize({ width: 900, height: 700 })
  const held = gate()
  const slow = 'This reply is held mid-stream, so that Escape lands while it runs. It ends here.'
  app.fakeModel.setScript([{ text: slow, holdUntil: held.opened }])
  await app.openFolder(page)
  await page.getByTestId('jobs-toggle').click()
  await expect(page.getByTestId('panel-dock')).toHaveAttribute('data-place', 'overlay')
  await sendMessage(page, 'Say something slowly')
  await expect(page.getByTestId('stop-button')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('panel-dock')).toHaveCount(0)
  // The turn was not stopped: let go, the reply arrives whole.
  await expect(page.getByTestId('turn-stopped')).toHaveCount(0)
  held.open()
  await waitForTurnEnd(page)
  await expect(page.getByTestId('message-assistant').last()).toContainText('It ends here.')
})
