// The keyboard: Ctrl/Cmd shortcuts, the command palette, find in the conversation, the shortcuts
// list (from the palette and from /help); desktop notifications in a hidden page; and a session
// opened from the sessions search landing on its hit.
import type { Page } from '@playwright/test'
import { gate } from '../testing/fake-model-server'
import { expect, test } from './fixtures/app'
import { sendMessage, waitForTurnEnd } from './fixtures/chat'

/** Cmd on a Mac, Ctrl elsewhere, as the app reads it (Chromium here reports Linux). */
const mod = process.platform === 'darwin' ? 'Meta' : 'Control'

async function palette(page: Page, query: string): Promise<void> {
  await page.keyboard.press(`${mod}+k`)
  const input = page.getByTestId('command-palette-input')
  await expect(input).toBeFocused()
  await input.fill(query)
  await input.press('Enter')
  await expect(page.getByTestId('command-palette')).toBeHidden()
}

/** How many hits the find bar has painted, and whether one is the current one. */
function painted(page: Page): Promise<{ hits: number; current: number }> {
  return page.evaluate(() => {
    const { CSS: css } = globalThis as unknown as {
      CSS: { highlights: Map<string, { size: number }> }
    }
    return {
      hits: css.highlights.get('mecatl-find-hit')?.size ?? 0,
      current: css.highlights.get('mecatl-find-current')?.size ?? 0
    }
  })
}

test('every shortcut, the command palette and the shortcuts list', async ({ page, app }) => {
  app.fakeModel.setScript([
    { text: 'The greeting is in src/greet.ts.' },
    { text: 'This one is held mid-stream so that Escape can stop it.', holdUntil: gate().opened }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Where is the greeting?')
  await waitForTurnEnd(page)
  const sessions = page.getByTestId('session-item')
  await expect(sessions).toHaveCount(1)

  // Ctrl/Cmd+N: a new session, even with the caret in the message box.
  await page.getByTestId('composer-input').focus()
  await page.keyboard.press(`${mod}+n`)
  await expect(sessions).toHaveCount(2)
  await expect(page.getByTestId('chat-empty')).toBeVisible()

  // Ctrl/Cmd+K: the palette, fuzzy over actions and sessions by title.
  await page.keyboard.press(`${mod}+k`)
  const input = page.getByTestId('command-palette-input')
  await expect(input).toBeFocused()
  await input.fill('greet')
  const items = page.getByTestId('command-palette-item')
  await expect(items).toHaveCount(1)
  await expect(items.first()).toHaveText('Switch to: Where is the greeting?')
  await input.fill('')
  await expect(items.first()).toContainText('New session')
  await input.fill('wheregreet')
  await input.press('Enter')
  await expect(page.getByTestId('command-palette')).toBeHidden()
  await expect(page.getByTestId('message-user')).toHaveText(['Where is the greeting?'])

  // A shortcut never fires while an input method is composing; the same key without one does.
  const press = (init: Record<string, string | number | boolean>): Promise<void> =>
    page.evaluate(
      ([extra, meta]) => {
        const dom = globalThis as unknown as {
          dispatchEvent(event: unknown): boolean
          KeyboardEvent: new (type: string, init: Record<string, unknown>) => unknown
        }
        const modifier = meta ? { metaKey: true } : { ctrlKey: true }
        dom.dispatchEvent(
          new dom.KeyboardEvent('keydown', { bubbles: true, ...modifier, ...extra })
        )
      },
      [init, mod === 'Meta'] as const
    )
  await press({ key: 'k', code: 'KeyK', isComposing: true })
  await press({ key: 'Process', code: 'KeyK', keyCode: 229 })
  await expect(page.getByTestId('command-palette')).toHaveCount(0)
  await press({ key: 'k', code: 'KeyK' })
  await expect(page.getByTestId('command-palette')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('command-palette')).toHaveCount(0)

  // The palette's actions: planning, jobs, settings, new session.
  await palette(page, 'planning')
  await expect(page.getByTestId('planning-banner')).toBeVisible()
  await palette(page, 'planning')
  await expect(page.getByTestId('planning-banner')).toBeHidden()
  await palette(page, 'open jobs')
  await expect(page.getByTestId('jobs-toggle')).toHaveAttribute('aria-pressed', 'true')
  await palette(page, 'open settings')
  await expect(page.getByTestId('settings-screen')).toBeVisible()
  await page.getByTestId('settings-close').click()
  await palette(page, 'new session')
  await expect(sessions).toHaveCount(3)

  // Ctrl/Cmd+, opens settings; Ctrl/Cmd+L puts the caret in the message box.
  await page.keyboard.press(`${mod}+,`)
  await expect(page.getByTestId('settings-screen')).toBeVisible()
  await page.getByTestId('settings-close').click()
  await page.getByTestId('session-search').focus()
  await page.keyboard.press(`${mod}+l`)
  await expect(page.getByTestId('composer-input')).toBeFocused()

  // The shortcuts list from the palette, written with this platform's modifier.
  await palette(page, 'shortcuts')
  const list = page.getByTestId('shortcuts-dialog')
  await expect(list).toBeVisible()
  const label = mod === 'Meta' ? '⌘K' : 'Ctrl+K'
  await expect(list.getByTestId('shortcut-line').filter({ hasText: label })).toHaveCount(1)
  await expect(list).toContainText('edit the last message')
  await page.keyboard.press('Escape')
  await expect(list).toBeHidden()

  // /help opens the same list, with the commands, and sends nothing.
  await sessions.filter({ hasText: 'Where is the greeting?' }).click()
  const requests = app.fakeModel.chatRequests().length
  const box = page.getByTestId('composer-input')
  await box.fill('/help')
  await box.press('Enter')
  await expect(list).toBeVisible()
  await expect(list.getByTestId('command-help')).toContainText('/plan')
  await page.keyboard.press('Escape')
  await expect(list).toBeHidden()
  await expect(box).toHaveValue('')
  // Even with the command list dismissed, /help stays in the window.
  await box.fill('/help')
  await box.press('Escape')
  await box.press('Enter')
  await expect(list).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('message-user')).toHaveCount(1)
  expect(app.fakeModel.chatRequests()).toHaveLength(requests)

  // Escape stops a running turn.
  await sendMessage(page, 'Say something slowly')
  await expect(page.getByTestId('message-assistant').last()).toContainText('This one')
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('turn-stopped')).toBeVisible()
  await waitForTurnEnd(page)
})

test('find in the conversation: hits highlighted, next and previous, Escape closes', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    { text: 'An apple a day. Apples are red; **apple** pie is sweet.' },
    { text: 'No fruit here.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Tell me about the apple')
  await waitForTurnEnd(page)
  await sendMessage(page, 'And the weather?')
  await waitForTurnEnd(page)

  // Ctrl/Cmd+F is the app's find, even from the message box.
  await page.getByTestId('composer-input').focus()
  await page.keyboard.press(`${mod}+f`)
  const find = page.getByTestId('find-input')
  await expect(find).toBeFocused()
  await find.fill('APPLE')
  const count = page.getByTestId('find-count')
  await expect(count).toHaveText('1 of 4')
  await expect.poll(() => painted(page)).toEqual({ hits: 3, current: 1 })

  await find.press('Enter')
  await expect(count).toHaveText('2 of 4')
  await find.press('Shift+Enter')
  await expect(count).toHaveText('1 of 4')
  await page.getByTestId('find-previous').click()
  await expect(count).toHaveText('4 of 4')
  await page.getByTestId('find-next').click()
  await expect(count).toHaveText('1 of 4')

  await find.fill('banana')
  await expect(count).toHaveText('No results')
  await expect.poll(() => painted(page)).toEqual({ hits: 0, current: 0 })

  await find.fill('apple')
  await expect(count).toHaveText('1 of 4')
  await find.press('Escape')
  await expect(page.getByTestId('find-bar')).toHaveCount(0)
  await expect.poll(() => painted(page)).toEqual({ hits: 0, current: 0 })
})

test('a notification is requested when a turn ends in a hidden page, and its click comes back', async ({
  page,
  app
}) => {
  // The browser's API boundary: the page is hidden and unfocused, and Notification records
  // what it is asked to show.
  await page.addInitScript(() => {
    type Permission = 'default' | 'granted' | 'denied'
    const dom = globalThis as unknown as { document: { hasFocus: () => boolean } }
    Object.defineProperty(dom.document, 'hidden', { configurable: true, get: () => true })
    Object.defineProperty(dom.document, 'visibilityState', {
      configurable: true,
      get: () => 'hidden'
    })
    dom.document.hasFocus = () => false
    const record = { shown: [] as unknown[], asked: 0 }
    Object.assign(globalThis, { notifications: record })
    class FakeNotification {
      static permission: Permission = 'default'
      static requestPermission(): Promise<Permission> {
        record.asked += 1
        FakeNotification.permission = 'granted'
        return Promise.resolve('granted')
      }
      onclick: (() => void) | null = null
      constructor(
        readonly title: string,
        readonly options: { body?: string; tag?: string }
      ) {
        record.shown.push(this)
      }
      close(): void {}
    }
    Object.assign(globalThis, { Notification: FakeNotification })
  })
  app.fakeModel.setScript([
    { text: 'Done with the first.' },
    { toolCalls: [{ name: 'Write', input: { path: 'out.txt', content: 'x\n' } }] },
    { text: 'Written.' },
    { text: 'Quiet now.' }
  ])
  await app.openFolder(page)
  type Shown = { title: string; options: { body: string; tag: string } }
  const shown = (): Promise<Shown[]> =>
    page.evaluate(() =>
      (globalThis as unknown as { notifications: { shown: Shown[] } }).notifications.shown.map(
        (n) => ({
          title: n.title,
          options: { body: n.options.body, tag: n.options.tag }
        })
      )
    )
  const asked = (): Promise<number> =>
    page.evaluate(
      () => (globalThis as unknown as { notifications: { asked: number } }).notifications.asked
    )

  await sendMessage(page, 'First task')
  await waitForTurnEnd(page)
  await expect.poll(shown).toHaveLength(1)
  const [first] = await shown()
  expect(first?.title).toBe('First task')
  expect(first?.options.body).toMatch(/finished/)
  expect(await asked()).toBe(1)

  // An approval waits: a notification, and a dot on the row and in the title.
  await sendMessage(page, 'Write out.txt')
  await expect(page.getByTestId('approval-modal')).toBeVisible()
  await expect.poll(shown).toHaveLength(2)
  expect((await shown())[1]?.options.body).toContain('Write')
  await expect(page.getByTestId('session-approval-dot')).toBeVisible()
  await expect.poll(() => page.title()).toMatch(/^● /)
  await page.getByTestId('approval-allow').click()
  await waitForTurnEnd(page)
  await expect(page.getByTestId('session-approval-dot')).toHaveCount(0)
  await expect.poll(() => page.title()).not.toMatch(/^● /)
  await expect.poll(shown).toHaveLength(3)
  expect(await asked()).toBe(1)

  // Clicking a notification brings its session back.
  await page.getByTestId('new-session-button').click()
  await expect(page.getByTestId('chat-empty')).toBeVisible()
  await page.evaluate(() => {
    const record = (
      globalThis as unknown as { notifications: { shown: { onclick: () => void }[] } }
    ).notifications
    record.shown[0]?.onclick()
  })
  await expect(page.getByTestId('session-title')).toHaveText('First task')

  // The setting turns them off.
  await page.keyboard.press(`${mod}+,`)
  const toggle = page.getByTestId('notifications-enabled')
  await expect(toggle).toBeChecked()
  await toggle.uncheck()
  await page.getByTestId('provider-save-button').click()
  await expect(page.getByTestId('settings-save-status')).toHaveText('Saved')
  await page.getByTestId('settings-close').click()
  await sendMessage(page, 'One more')
  await waitForTurnEnd(page)
  await expect(page.getByTestId('message-assistant').last()).toContainText('Quiet now.')
  expect(await shown()).toHaveLength(3)
})

test('a session opened from the search lands on its hit, far back in a long transcript', async ({
  page,
  app
}) => {
  // 170 real tool calls: slow on a loaded machine, so this test gets more time than most.
  test.setTimeout(180_000)
  // Enough steps that the first message is far above the screen, so it is not rendered (read-only
  // calls in a row fold into one line: each step here has text between its calls).
  const steps = Array.from({ length: 45 }, (_, i) => ({
    text: `Reading part ${i + 1}.`,
    toolCalls: [{ name: 'Read', input: { path: 'README.md' } }]
  }))
  app.fakeModel.setScript([
    ...steps,
    { text: 'All read. The README names a **giraffe** in `notes`, see [the list](notes/todo.md).' },
    { text: 'Unrelated.' }
  ])
  await app.openFolder(page)
  // Sent by hand: the message leaves the rendered window as soon as the calls come in.
  await page
    .getByTestId('composer-input')
    .fill('Read README.md for the zebra crossing, many times over')
  await page.getByTestId('send-button').click()
  await expect(page.getByTestId('message-assistant').last()).toContainText('All read', {
    timeout: 120_000
  })
  await waitForTurnEnd(page)
  await page.getByTestId('new-session-button').click()
  await sendMessage(page, 'Something else')
  await waitForTurnEnd(page)
  // The first message is not rendered: the transcript renders the rows on screen only.
  await page.getByTestId('session-item').filter({ hasText: 'zebra' }).click()
  await expect(page.getByTestId('message-assistant').last()).toContainText('All read')
  await expect(page.getByTestId('message-user')).toHaveCount(0)
  await page.getByTestId('session-item').filter({ hasText: 'Something else' }).click()

  await page.getByTestId('session-search').fill('zebra')
  const snippet = page.getByTestId('session-snippet')
  await expect(snippet).toHaveCount(1)
  await expect(snippet).toContainText('zebra crossing')
  await page.getByTestId('session-item').filter({ hasText: 'zebra' }).click()

  const hit = page.getByTestId('message-user').filter({ hasText: 'zebra crossing' })
  await expect(hit).toBeInViewport()
  await expect(page.getByTestId('find-input')).toHaveValue('zebra')
  await expect(page.getByTestId('find-count')).toHaveText('1 of 1')
  await expect.poll(() => painted(page)).toEqual({ hits: 0, current: 1 })

  // A snippet is the text the reply shows, not its Markdown, with the hit whole.
  await page.getByTestId('session-search').fill('giraffe')
  await expect(snippet).toHaveText('All read. The README names a giraffe in notes, see the list.')
  await expect(snippet.locator('mark')).toHaveText('giraffe')
})
