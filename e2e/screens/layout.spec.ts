// The window's layout from a laptop down to a narrow window, photographed in both themes and
// checked with axe-core in both. What each layout does is proved by layout.spec.ts and
// layout-narrow.spec.ts.
import { expect, test } from '../fixtures/app'
import { sendMessage, waitForTurnEnd } from '../fixtures/chat'

const mod = process.platform === 'darwin' ? 'Meta' : 'Control'

const reply = (paragraphs: number): string =>
  Array.from(
    { length: paragraphs },
    (_, i) =>
      `Paragraph ${i + 1}. The sample project keeps its notes in notes/ and its code in src/; ` +
      'this line is long on purpose, so that a narrower column wraps it onto more rows.'
  ).join('\n\n')

const plan = [
  { text: 'Read the project files', status: 'done' },
  { text: 'List what each folder is for', status: 'in_progress' },
  { text: 'Suggest a clearer layout', status: 'pending' }
]

test('from 1280 down to 640: panels beside or floating, the sidebar over the chat', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    { text: reply(12) },
    { text: 'Here is my plan.', toolCalls: [{ name: 'Todo', input: { items: plan } }] },
    { text: reply(40) }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Describe the project')
  await waitForTurnEnd(page)
  const sidebar = page.getByTestId('sidebar')
  for (const width of [760, 640]) {
    await page.setViewportSize({ width, height: 700 })
    await expect(page.locator('.project')).toHaveAttribute('data-sidebar', 'hidden')
    await app.screenshot(page, `layout-narrow-${width}`)
    await page.keyboard.press(`${mod}+b`)
    await expect(page.locator('.project')).toHaveAttribute('data-sidebar', 'overlay')
    await app.screenshot(page, `layout-narrow-${width}-sidebar`)
    await page.keyboard.press('Escape')
    await expect(sidebar).toBeHidden()
  }

  await page.setViewportSize({ width: 1280, height: 800 })
  await expect(sidebar).toBeVisible()
  await page.getByTestId('new-session-button').click()
  await sendMessage(page, 'Tidy up the project layout')
  await waitForTurnEnd(page)
  await page.getByTestId('jobs-toggle').click()
  await page.getByTestId('panel-tab').filter({ hasText: 'Plan' }).click()
  await expect(page.getByTestId('todo-item')).toHaveCount(3)
  await app.screenshot(page, 'layout-01-1280-both-panels')

  await page.setViewportSize({ width: 900, height: 700 })
  const dock = page.getByTestId('panel-dock')
  await expect(dock).toHaveAttribute('data-place', 'overlay')
  await app.screenshot(page, 'layout-02-900-both-panels')
  await page.keyboard.press(`${mod}+b`)
  await expect(sidebar).toBeVisible()
  await app.screenshot(page, 'layout-03-900-sidebar')
  await page.keyboard.press(`${mod}+b`)
  await expect(sidebar).toBeHidden()
  // The plan alone fits beside the chat; the job monitor opened too floats over it, dimmed.
  await page.keyboard.press('Escape')
  await expect(dock).toHaveCount(0)
  await expect(page.locator('.project')).toHaveAttribute('data-panels', 'beside')
  await page.getByTestId('jobs-toggle').click()
  await expect(page.getByTestId('panel-scrim')).toBeVisible()
  await app.screenshot(page, 'layout-narrow-900-dock')
  await page.keyboard.press('Escape')
  await expect(dock).toHaveCount(0)

  await page.setViewportSize({ width: 760, height: 700 })
  await page.getByTestId('todo-toggle').click()
  await expect(dock).toHaveAttribute('data-place', 'overlay')
  await expect(page.getByTestId('todo-item')).toHaveCount(3)
  await app.screenshot(page, 'layout-narrow-760-plan')
})
