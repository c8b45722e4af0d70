// The approval dialog as a person reads it: a Shell command in words, an Edit as the card's
// numbered diff, several waiting calls in one dialog, reviewing the transcript meanwhile, and
// the keys (Enter allows once, Escape denies).
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { latestToolResults } from '../testing/fake-model-server'
import { expect, test } from './fixtures/app'
import { plain, readWorkspaceFile, sendMessage, toolCards, waitForTurnEnd } from './fixtures/chat'

/** The page's document, as far as these checks use it (the e2e build has no DOM types). */
interface FocusDocument {
  activeElement: unknown
  querySelector(selector: string): { contains(node: unknown): boolean } | null
}

/** Whether keyboard focus is inside the open approval dialog. */
function focusInDialog(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: FocusDocument }).document
    const dialog = doc.querySelector('[data-testid="approval-modal"]')
    return dialog !== null && dialog.contains(doc.activeElement)
  })
}

test('a Shell approval shows the command and what the parser found; Escape denies', async ({
  page,
  app
}) => {
  const command = 'grep -c milk notes/todo.md > count.txt && echo "checked $(date +%F)"'
  app.fakeModel.setScript([
    { text: 'Counting.', toolCalls: [{ name: 'Shell', input: { command } }] },
    (req) => ({ text: `Result: ${plain(latestToolResults(req)[0]?.content ?? 'none')}` })
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Count the milk in the todo list')

  const modal = page.getByTestId('approval-modal')
  await expect(modal).toBeVisible()
  await expect(page.getByTestId('approval-command')).toHaveText(command)
  const findings = page.getByTestId('approval-shell-findings')
  await expect(findings.locator('[data-kind="runs"]')).toContainText(
    'Runs 3 commands, in this order'
  )
  await expect(findings.locator('[data-kind="runs"] li')).toHaveText([
    'grep -c milk notes/todo.md',
    'date +%F',
    'echo "checked $(date +%F)"'
  ])
  await expect(findings.locator('[data-kind="writes"]')).toContainText(
    'Writes to 1 file by redirection:> count.txt'
  )
  await expect(findings.locator('[data-kind="substitutes"]')).toContainText('$(date +%F)')
  await expect(page.getByTestId('approval-capabilities')).toContainText('Runs commands')

  // Tab moves between the choices and stays in the dialog.
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab')
    expect(await focusInDialog(page)).toBe(true)
  }
  await page.keyboard.press('Escape')
  await expect(modal).toHaveCount(0)
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'Result: The person denied'
  )
  await waitForTurnEnd(page)
  expect(readWorkspaceFile(app.workspace, 'count.txt')).toBeNull()
})

test('an Edit approval shows the numbered diff with the path in its own case; Enter allows once', async ({
  page,
  app
}) => {
  mkdirSync(path.join(app.workspace, 'Tests'), { recursive: true })
  writeFileSync(path.join(app.workspace, 'Tests/Mul.test.js'), 'expect(mul(2, 3)).toBe(5)\n')
  app.fakeModel.setScript([
    {
      text: 'Reading it first.',
      toolCalls: [{ name: 'Read', input: { path: 'Tests/Mul.test.js' } }]
    },
    {
      text: 'Fixing the expectation.',
      toolCalls: [
        {
          name: 'Edit',
          input: { path: 'Tests/Mul.test.js', old: 'toBe(5)', new: 'toBe(6)' }
        }
      ]
    },
    (req) => ({ text: `Result: ${plain(latestToolResults(req)[0]?.content ?? 'none')}` })
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Fix the multiplication test')

  const modal = page.getByTestId('approval-modal')
  await expect(modal).toBeVisible()
  const diff = page.getByTestId('approval-diff')
  // As displayed (innerText), so a CSS text-transform would show here.
  await expect(diff).toContainText('Tests/Mul.test.js', { useInnerText: true })
  await expect(modal).toContainText('Edit Tests/Mul.test.js', { useInnerText: true })
  await expect(diff.getByTestId('diff-remove')).toHaveText(['1−toBe(5)'])
  await expect(diff.getByTestId('diff-add')).toHaveText(['1+toBe(6)'])
  await expect(page.getByTestId('approval-capabilities')).toContainText('Changes files')

  // Focus is on the dialog itself, not on a control: Enter there allows once.
  await modal.focus()
  await page.keyboard.press('Enter')
  await expect(modal).toHaveCount(0)
  await expect(toolCards(page, 'Edit')).toHaveAttribute('data-state', 'done')
  await waitForTurnEnd(page)
  expect(readWorkspaceFile(app.workspace, 'Tests/Mul.test.js')).toBe('expect(mul(2, 3)).toBe(6)\n')
})

test('review in transcript, then two waiting calls in one dialog: one allowed, one denied', async ({
  page,
  app
}) => {
  const answer = (req: Parameters<typeof latestToolResults>[0]): { text: string } => ({
    text: `Result: ${plain(latestToolResults(req)[0]?.content ?? 'none')}`
  })
  app.fakeModel.setScript([
    {
      text: 'Writing a.',
      toolCalls: [{ name: 'Write', input: { path: 'a.txt', content: 'a\n' } }]
    },
    {
      text: 'Writing b.',
      toolCalls: [{ name: 'Write', input: { path: 'b.txt', content: 'b\n' } }]
    },
    answer,
    answer
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Write a.txt')
  const modal = page.getByTestId('approval-modal')
  await expect(modal).toBeVisible()

  // Closed for review: the transcript can be read, the bar says what waits, the row has its dot.
  await page.getByTestId('approval-review').click()
  await expect(modal).toHaveCount(0)
  const bar = page.getByTestId('approval-review-bar')
  await expect(bar).toContainText('1 call waits for your answer')
  await expect(page.getByTestId('session-approval-dot')).toHaveCount(1)
  await page.getByTestId('message-assistant').last().click()
  await expect(page.getByTestId('message-assistant').last()).toContainText('Writing a.')

  // A second session asks too; the bar counts both and the list marks both sessions.
  await page.getByTestId('new-session-button').click()
  await sendMessage(page, 'Write b.txt')
  await expect(bar).toContainText('2 calls wait for your answer')
  await expect(page.getByTestId('session-approval-dot')).toHaveCount(2)
  await page.getByTestId('approval-review-return').click()

  await expect(modal).toBeVisible()
  await expect(modal).toHaveAttribute('data-waiting', '2')
  const rows = page.getByTestId('approval-row')
  await expect(rows).toHaveCount(2)
  await expect(rows.nth(0)).toContainText('a.txt')
  await expect(rows.nth(1)).toContainText('b.txt')
  await expect(page.getByTestId('approval-allow-all')).toHaveText('Allow all 2')

  await rows.filter({ hasText: 'a.txt' }).getByTestId('approval-row-allow').click()
  await expect(rows).toHaveCount(0)
  await expect(modal).toContainText('b.txt')
  await page.getByTestId('approval-reason').fill('not b')
  await page.getByTestId('approval-deny').click()
  await expect(modal).toHaveCount(0)
  await expect(bar).toHaveCount(0)

  await expect.poll(() => app.fakeModel.chatRequests().length).toBe(4)
  const results = app.fakeModel
    .chatRequests()
    .slice(2)
    .map((req) => latestToolResults(req)[0]?.content ?? '')
  expect(results.some((text) => text.includes('a.txt'))).toBe(true)
  expect(results).toContainEqual(expect.stringContaining('saying: not b'))
  expect(readWorkspaceFile(app.workspace, 'a.txt')).toBe('a\n')
  expect(readWorkspaceFile(app.workspace, 'b.txt')).toBeNull()
  await expect(page.getByTestId('session-approval-dot')).toHaveCount(0)
})
