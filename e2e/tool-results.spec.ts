// Tool results in the form that suits them: diffs for Write and Edit, a cut output with its
// viewer, and the model's plan beside the chat.
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { latestToolResults } from '../testing/fake-model-server'
import { expect, test } from './fixtures/app'
import {
  openToolGroups,
  readWorkspaceFile,
  sendMessage,
  toolCards,
  waitForTurnEnd
} from './fixtures/chat'

/** Opens a tool card's details, as a person clicks its header. */
async function expand(page: Page, tool: string): Promise<void> {
  await openToolGroups(page)
  const card = toolCards(page, tool).last()
  await card.locator('.tool-card__header').click()
  await expect(card.locator('.tool-card__details')).toBeVisible()
}

test('Write shows a new file as additions and Edit shows its change as a diff', async ({
  page,
  app
}) => {
  const farewell = [
    'export function farewell(name: string): string {',
    '  return `Goodbye, ${name}`',
    '}',
    ''
  ].join('\n')
  app.fakeModel.setScript([
    {
      text: 'I will add a farewell next to the greeting.',
      toolCalls: [{ name: 'Write', input: { path: 'src/farewell.ts', content: farewell } }]
    },
    { toolCalls: [{ name: 'Read', input: { path: 'src/greet.ts' } }] },
    {
      text: 'And make the greeting a little warmer.',
      toolCalls: [
        {
          name: 'Edit',
          input: {
            path: 'src/greet.ts',
            old: '  return `Hello, ${name}`\n',
            new: '  // Say it warmly.\n  return `Hello, ${name}!`\n'
          }
        }
      ]
    },
    { text: 'Both files are done.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Add a farewell function and warm up the greeting')
  for (const tool of ['Write', 'Edit']) {
    await expect(page.getByTestId('approval-modal')).toHaveAttribute('data-tool', tool)
    await page.getByTestId('approval-allow').click()
    await expect(toolCards(page, tool)).toHaveAttribute('data-state', 'done')
  }
  await expect(page.getByTestId('message-assistant').last()).toContainText('Both files are done.')
  await waitForTurnEnd(page)
  expect(readWorkspaceFile(app.workspace, 'src/greet.ts')).toContain('Hello, ${name}!')

  await expand(page, 'Write')
  const written = toolCards(page, 'Write').getByTestId('diff-view')
  await expect(written).toContainText('src/farewell.ts')
  await expect(written).toContainText('New file')
  await expect(written.getByTestId('diff-add')).toHaveCount(3)
  await expect(written.getByTestId('diff-remove')).toHaveCount(0)

  await expand(page, 'Edit')
  const edited = toolCards(page, 'Edit').getByTestId('diff-view')
  await expect(edited.getByTestId('diff-remove')).toHaveCount(1)
  await expect(edited.getByTestId('diff-remove')).toContainText('return `Hello, ${name}`')
  await expect(edited.getByTestId('diff-add')).toHaveCount(2)
  await expect(edited.getByTestId('diff-add').first()).toContainText('// Say it warmly.')
  // Old and new line numbers: the removed line was line 2, the added ones are lines 2 and 3.
  await expect(edited.getByTestId('diff-add').nth(1).locator('td').nth(1)).toHaveText('3')

  // The text the model was sent stays one click away.
  await toolCards(page, 'Edit').getByTestId('result-as-text').click()
  await expect(toolCards(page, 'Edit').getByTestId('tool-output')).toContainText(
    'Edited `src/greet.ts`'
  )
})

test('Grep shows its hits grouped by file and Glob lists the files', async ({ page, app }) => {
  const files: Record<string, string> = {
    'src/farewell.ts':
      'export function farewell(name: string): string {\n  return `Bye, ${name}`\n}\n',
    'src/main.ts':
      "import { greet } from './greet'\n\nconsole.log(greet('world'), greet('Mecatl'))\n",
    'src/util/names.ts': 'export const names = ["Ana", "Bo"] // the name list\n'
  }
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(app.workspace, name)), { recursive: true })
    writeFileSync(path.join(app.workspace, name), content)
  }
  app.fakeModel.setScript([
    {
      text: 'Let me find where names are used.',
      toolCalls: [
        { name: 'Grep', input: { pattern: 'name', glob: 'src/**/*.ts' } },
        { name: 'Glob', input: { pattern: 'src/**/*.ts' } }
      ]
    },
    { text: 'Names appear in three files.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Where do we use names?')
  await expect(page.getByTestId('message-assistant').last()).toContainText('three files')
  await waitForTurnEnd(page)

  await expand(page, 'Grep')
  const matches = toolCards(page, 'Grep').getByTestId('matches-view')
  await expect(matches.getByTestId('match-file')).toHaveCount(3)
  await expect(matches.getByTestId('match-file').first()).toContainText('src/farewell.ts')
  await expect(matches.getByTestId('match-file').first().locator('tr')).toHaveCount(2)
  // Both hits on the line of names.ts are marked, and nothing else on it.
  const namesLine = matches.getByTestId('match-file').last().locator('tr').first()
  await expect(namesLine).toContainText('export const names')
  await expect(namesLine.locator('mark')).toHaveText(['name', 'name'])

  await expand(page, 'Glob')
  const list = toolCards(page, 'Glob').getByTestId('file-list')
  await expect(list).toContainText('4 files')
  await expect(list.locator('li')).toHaveText([
    'src/farewell.ts',
    'src/greet.ts',
    'src/main.ts',
    'src/util/names.ts'
  ])
})

test('a result over the budget is cut, and the whole output opens from its card', async ({
  page,
  app
}) => {
  // About 110 KB: more than the whole default budget (an eighth of 128k tokens, 48,000 bytes).
  const lines = Array.from(
    { length: 1500 },
    (_, i) => `${String(i + 1).padStart(4, '0')} INFO build step ${i + 1} finished in ${i % 97} ms`
  )
  writeFileSync(path.join(app.workspace, 'build.log'), lines.join('\n') + '\n')
  app.fakeModel.setScript([
    { text: 'Let me read the log.', toolCalls: [{ name: 'Read', input: { path: 'build.log' } }] },
    (req) => {
      const result = latestToolResults(req)[0]?.content ?? ''
      const cut = /the rest begins at line (\d+)/.exec(result)
      return { text: cut ? `The log was cut; the rest begins at line ${cut[1]}.` : 'Not cut.' }
    }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'What does build.log say?')
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'The log was cut; the rest begins at line'
  )
  await waitForTurnEnd(page)

  await expand(page, 'Read')
  const notice = toolCards(page, 'Read').getByTestId('spill-notice')
  await expect(notice).toContainText("Output cut to fit this turn's budget.")
  await expect(notice).toContainText('The model saw')
  await notice.getByTestId('spill-open').click()
  const viewer = page.getByTestId('spill-viewer')
  await expect(viewer).toBeVisible()
  // What the model saw above the rule, the rest below it, the whole file in one place.
  await expect(viewer.getByTestId('spill-text').first()).toContainText(lines[0] ?? 'missing')
  await expect(viewer.getByTestId('spill-text').last()).toContainText(lines[1499] ?? 'missing')
  const rule = viewer.getByTestId('spill-cut')
  await expect(rule).toContainText('The model saw the lines above; the rest begins here')
  await viewer.getByTestId('spill-jump').click()
  await expect(rule).toBeInViewport()

  await page.keyboard.press('Escape')
  await expect(viewer).toBeHidden()
})

test('the plan shows as a checklist beside the chat and follows the model live', async ({
  page,
  app
}) => {
  const plan = [
    { text: 'Read the README', status: 'done' },
    { text: 'List what each folder is for', status: 'in_progress' },
    { text: 'Suggest a clearer layout', status: 'pending' },
    { text: 'Write the summary to NOTES.md', status: 'pending' }
  ]
  app.fakeModel.setScript([
    { text: 'Here is my plan.', toolCalls: [{ name: 'Todo', input: { items: plan } }] },
    { toolCalls: [{ name: 'ListDir', input: { path: '.' } }] },
    { text: 'The folders are README, notes and src. I will go on when you say so.' },
    {
      toolCalls: [
        {
          name: 'Todo',
          input: { items: plan.map((item) => ({ ...item, status: 'done' })) }
        }
      ]
    },
    { text: 'All four steps are done.' }
  ])
  await app.openFolder(page)
  await expect(page.getByTestId('todo-panel')).toHaveCount(0)
  await sendMessage(page, 'Tidy up the project layout')
  await waitForTurnEnd(page)

  const panel = page.getByTestId('todo-panel')
  await expect(panel).toBeVisible()
  await expect(panel.getByTestId('todo-item')).toHaveCount(4)
  await expect(panel.getByTestId('todo-item').nth(1)).toHaveAttribute('data-status', 'in_progress')
  await expect(panel.getByTestId('todo-progress')).toHaveText('1 of 4 done')
  // The plan reached the model with the next tool result too.
  expect(app.fakeModel.chatRequests()[2]?.messages.at(-1)?.toolResults?.[0]?.content).toContain(
    '[>] List what each folder is for'
  )

  await sendMessage(page, 'Go on')
  await expect(page.getByTestId('todo-progress')).toHaveText('4 of 4 done')
  await waitForTurnEnd(page)
  await page.getByTestId('todo-toggle').click()
  await expect(panel.getByTestId('todo-item')).toHaveCount(0)
  await expect(panel).toContainText('4/4')

  // A reload keeps the plan: it comes back with the session.
  await page.reload()
  await expect(page.getByTestId('todo-item')).toHaveCount(4)
  await expect(page.getByTestId('todo-progress')).toHaveText('4 of 4 done')
})
