// The chat's screens, photographed in both themes and checked with axe-core in both (see
// fixtures/screens.ts): the first chat, the main screens, tool cards and their views, a quieter
// transcript. Each test walks several screens on one page; what the screens do is proved by the
// functional specs named above each test.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { latestToolResults } from '../../testing/fake-model-server'
import { expect, test } from '../fixtures/app'
import {
  openCard,
  openToolGroups,
  plain,
  sendMessage,
  toolCards,
  waitForTurnEnd
} from '../fixtures/chat'
import { themeOf } from '../fixtures/screens'
import { everythingProject, writeFiles, writeProjectSettings } from '../fixtures/workspace'

const writeHello = {
  text: 'I will create `hello.txt` for you.',
  toolCalls: [{ name: 'Write', input: { path: 'hello.txt', content: 'Hello from Mecatl\n' } }],
  usage: { input: 1200, output: 40, cached: 1000 }
}

// first-chat.spec.ts
test('the first chat: welcome, project, approval, tool card, a denial with its reason', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    writeHello,
    (req) => ({ text: `Tool result seen: ${plain(latestToolResults(req)[0]?.content ?? '')}` }),
    writeHello,
    { text: 'Understood, I did not write it (1 result).' }
  ])
  await page.goto(app.url)
  await expect(page.getByTestId('folder-path-input')).toBeVisible()
  await app.screenshot(page, 'first-chat-01-welcome')
  await app.openFolder(page)
  await app.screenshot(page, 'first-chat-02-project')

  await sendMessage(page, 'Please create hello.txt with a greeting')
  await expect(page.getByTestId('approval-modal')).toContainText('hello.txt')
  await app.screenshot(page, 'first-chat-03-approval')
  await page.getByTestId('approval-allow').click()
  await expect(page.getByTestId('message-assistant').last()).toContainText('Tool result seen')
  await waitForTurnEnd(page)
  await expect(page.getByTestId('turn-usage').last()).toBeVisible()
  await app.screenshot(page, 'first-chat-04-tool-card')

  await page.getByTestId('new-session-button').click()
  await sendMessage(page, 'Please create hello.txt with a greeting')
  await page.getByTestId('approval-reason').fill('Not now: put greetings in README.md instead')
  await app.screenshot(page, 'first-chat-05-deny-reason')
  await page.getByTestId('approval-deny').click()
  await expect(toolCards(page, 'Write')).toHaveAttribute('data-state', 'denied')
  await expect(page.getByTestId('message-assistant').last()).toContainText('Understood')
  await waitForTurnEnd(page)
  await app.screenshot(page, 'first-chat-06-denied')
})

// appearance.spec.ts
test('the main screens: chat, approval, job monitor and settings, a pinned theme too', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    {
      text: 'Let me read the greeting first.',
      toolCalls: [{ name: 'Read', input: { path: 'src/greet.ts' } }]
    },
    {
      text: [
        'The greeting is a template string:',
        '',
        '```ts',
        '// Says hello.',
        'export function greet(name: string): string {',
        '  return `Hello, ${name}` + String(42)',
        '}',
        '```',
        '',
        'It takes **one** argument.'
      ].join('\n')
    },
    {
      text: 'Starting the dev server in the background.',
      toolCalls: [
        {
          name: 'Shell',
          input: {
            // Runs until the test is done with its terminal and says so with a file.
            command:
              "printf '\\033[32mready\\033[0m in 312 ms\\n'; until [ -e .dev-done ]; do sleep 0.1; done",
            background: true,
            description: 'Start the dev server'
          }
        }
      ]
    },
    (req) => ({ text: `Started. ${plain(latestToolResults(req)[0]?.content ?? '')}` })
  ])
  await page.emulateMedia({ colorScheme: 'light' })
  await app.openFolder(page)
  await app.screenshot(page, 'appearance-00-welcome-chat')

  await sendMessage(page, 'What does greet do?')
  await expect(page.getByTestId('message-assistant').last()).toContainText('one argument')
  await waitForTurnEnd(page)
  await app.screenshot(page, 'appearance-01-chat')
  // The fixture leaves the page as it found it.
  expect(await themeOf(page)).toBe('light')

  await sendMessage(page, 'Start the dev server')
  await expect(page.getByTestId('approval-modal')).toBeVisible()
  await app.screenshot(page, 'appearance-02-approval')
  await page.getByTestId('approval-allow').click()
  await waitForTurnEnd(page)
  await page.getByTestId('jobs-toggle').click()
  const monitor = page.getByTestId('job-monitor')
  await expect(monitor.getByTestId('job-terminal')).toContainText('ready in 312 ms')
  await app.screenshot(page, 'appearance-03-job-monitor')
  writeFileSync(path.join(app.workspace, '.dev-done'), '')
  await expect(page.getByTestId('announcer')).toHaveText(
    'Job finished: Start the dev server (exit code 0).'
  )

  await page.getByTestId('settings-button').click()
  await expect(page.getByTestId('appearance-section')).toBeVisible()
  await app.screenshot(page, 'appearance-04-settings')
  // A theme pinned in Settings still gets both shots: the fixture paints the other one itself.
  await page.getByTestId('appearance-section').getByTestId('theme-dark').check()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await page.getByTestId('appearance-section').scrollIntoViewIfNeeded()
  const shots = await app.screenshot(page, 'appearance-05-settings-appearance')
  expect(shots.light).toMatch(/appearance-05-settings-appearance-light\.png$/)
  expect(await themeOf(page)).toBe('dark')
})

// tool-results.spec.ts, multi-tool.spec.ts
test('tool cards: Write and Edit diffs, Grep and Glob, three cards of one turn', async ({
  page,
  app
}) => {
  writeFiles(app.workspace, {
    'src/main.ts': "import { greet } from './greet'\n\nconsole.log(greet('world'))\n",
    'src/util/names.ts': 'export const names = ["Ana", "Bo"] // the name list\n'
  })
  const farewell =
    'export function farewell(name: string): string {\n  return `Goodbye, ${name}`\n}\n'
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
    { text: 'Both files are done.' },
    {
      text: 'Let me find where names are used.',
      toolCalls: [
        { name: 'Grep', input: { pattern: 'name', glob: 'src/**/*.ts' } },
        { name: 'Glob', input: { pattern: 'src/**/*.ts' } }
      ]
    },
    { text: 'Names appear in four files.' },
    {
      text: 'Let me look at both files.',
      toolCalls: [
        { name: 'Read', input: { path: 'README.md' } },
        { name: 'Read', input: { path: 'notes/todo.md' } }
      ]
    },
    {
      text: 'Read 2 files; writing the summary.',
      toolCalls: [{ name: 'Write', input: { path: 'summary.md', content: '# Summary\n' } }]
    },
    { text: 'All done: summary.md is written.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Add a farewell function and warm up the greeting')
  for (const tool of ['Write', 'Edit']) {
    await expect(page.getByTestId('approval-modal')).toHaveAttribute('data-tool', tool)
    await page.getByTestId('approval-allow').click()
  }
  await expect(page.getByTestId('message-assistant').last()).toContainText('Both files are done.')
  await waitForTurnEnd(page)
  await openCard(page, 'Write')
  await openCard(page, 'Edit')
  // Tall enough for both cards in one picture.
  await page.setViewportSize({ width: 1280, height: 1100 })
  await toolCards(page, 'Write').scrollIntoViewIfNeeded()
  await app.screenshot(page, 'tool-results-01-write-and-edit-diffs')

  await page.getByTestId('new-session-button').click()
  await sendMessage(page, 'Where do we use names?')
  await expect(page.getByTestId('message-assistant').last()).toContainText('four files')
  await waitForTurnEnd(page)
  await openCard(page, 'Grep')
  await openCard(page, 'Glob')
  await page.getByTestId('transcript').evaluate((el) => (el.scrollTop = el.scrollHeight))
  await app.screenshot(page, 'tool-results-06-grep-and-glob')
  await page.setViewportSize({ width: 1280, height: 800 })

  await page.getByTestId('new-session-button').click()
  await sendMessage(page, 'Summarise README.md and notes/todo.md into summary.md')
  await page.getByTestId('approval-allow').click()
  await expect(page.getByTestId('message-assistant').last()).toContainText('All done')
  await waitForTurnEnd(page)
  await openToolGroups(page)
  await expect(toolCards(page)).toHaveCount(3)
  await app.screenshot(page, 'multi-tool-01-three-cards')
})

// tool-results.spec.ts
test('a cut output with its viewer, and the plan beside the chat', async ({ page, app }) => {
  const lines = Array.from(
    { length: 1500 },
    (_, i) => `${String(i + 1).padStart(4, '0')} INFO build step ${i + 1} finished in ${i % 97} ms`
  )
  writeFiles(app.workspace, { 'build.log': lines.join('\n') + '\n' })
  const plan = [
    { text: 'Read the README', status: 'done' },
    { text: 'List what each folder is for', status: 'in_progress' },
    { text: 'Suggest a clearer layout', status: 'pending' },
    { text: 'Write the summary to NOTES.md', status: 'pending' }
  ]
  app.fakeModel.setScript([
    { text: 'Let me read the log.', toolCalls: [{ name: 'Read', input: { path: 'build.log' } }] },
    { text: 'The log was cut; the rest is in the file.' },
    { text: 'Here is my plan.', toolCalls: [{ name: 'Todo', input: { items: plan } }] },
    { text: 'The folders are README, notes and src. I will go on when you say so.' },
    {
      toolCalls: [{ name: 'Todo', input: { items: plan.map((i) => ({ ...i, status: 'done' })) } }]
    },
    { text: 'All four steps are done.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'What does build.log say?')
  await expect(page.getByTestId('message-assistant').last()).toContainText('The log was cut')
  await waitForTurnEnd(page)
  const notice = (await openCard(page, 'Read')).getByTestId('spill-notice')
  await notice.getByTestId('spill-open').click()
  const viewer = page.getByTestId('spill-viewer')
  await viewer.getByTestId('spill-jump').click()
  await expect(viewer.getByTestId('spill-cut')).toBeInViewport()
  await app.screenshot(page, 'tool-results-02-spill-viewer')
  await page.keyboard.press('Escape')
  await expect(viewer).toBeHidden()
  await notice.scrollIntoViewIfNeeded()
  await app.screenshot(page, 'tool-results-03-spill-notice')

  await page.getByTestId('new-session-button').click()
  await sendMessage(page, 'Tidy up the project layout')
  await waitForTurnEnd(page)
  await expect(page.getByTestId('todo-progress')).toHaveText('1 of 4 done')
  await app.screenshot(page, 'tool-results-04-plan')
  await sendMessage(page, 'Go on')
  await expect(page.getByTestId('todo-progress')).toHaveText('4 of 4 done')
  await waitForTurnEnd(page)
  await page.getByTestId('todo-toggle').click()
  await expect(page.getByTestId('todo-item')).toHaveCount(0)
  await app.screenshot(page, 'tool-results-05-plan-folded')
})

// quiet-transcript.spec.ts
test('a quieter transcript: a folded group, opened, found in, shell output, an MCP image', async ({
  page,
  app
}) => {
  writeProjectSettings(app.workspace, everythingProject())
  const spin = ['⠙', '⠹', '⠸', '⠼'].map((glyph) => `\\033[1G\\033[2K${glyph}`).join('')
  const command = `printf '\\033[?25l${spin}\\033[1G\\033[2K\\033[?25h\\033[32madded 3 packages\\033[0m in 1s\\r\\n'`
  app.fakeModel.setScript([
    {
      text: 'Looking around the project.',
      toolCalls: [
        { name: 'Read', input: { path: 'src/greet.ts' } },
        { name: 'Read', input: { path: 'README.md' } }
      ]
    },
    {
      toolCalls: [
        { name: 'Grep', input: { pattern: 'greet' } },
        { name: 'Read', input: { path: 'notes/todo.md' } }
      ]
    },
    { text: 'The greeting lives in src/greet.ts.' },
    { text: 'Installing.', toolCalls: [{ name: 'Shell', input: { command } }] },
    (req) => ({ text: `Shell said: ${plain(latestToolResults(req)[0]?.content ?? '')}` }),
    {
      text: 'Asking the server.',
      toolCalls: [{ name: 'mcp__everything__echo', input: { message: 'hello from MCP' } }]
    },
    { text: 'And a picture.', toolCalls: [{ name: 'mcp__everything__get-tiny-image', input: {} }] },
    { text: 'Done.' }
  ])
  await app.openFolder(page)
  await page.getByTestId('mcp-trust-accept').click()
  await expect(page.getByTestId('mcp-trust-prompt')).toBeHidden()
  await sendMessage(page, 'Where is the greeting?')
  await expect(page.getByTestId('message-assistant').last()).toContainText('lives in src/greet.ts')
  await waitForTurnEnd(page)
  const group = page.getByTestId('tool-group')
  await app.screenshot(page, 'quiet-01-folded-group')
  await group.getByTestId('tool-group-toggle').click()
  await expect(toolCards(page)).toHaveCount(4)
  await app.screenshot(page, 'quiet-02-group-open')
  await group.getByTestId('tool-group-toggle').click()
  await expect(toolCards(page)).toHaveCount(0)
  await page.getByTestId('composer-input').click()
  await page.keyboard.press('ControlOrMeta+f')
  await page.getByTestId('find-input').fill('buy milk')
  await expect(page.getByTestId('find-count')).toHaveText('1 of 1')
  await app.screenshot(page, 'quiet-03-find-in-group')
  await page.keyboard.press('Escape')

  await page.getByTestId('new-session-button').click()
  await sendMessage(page, 'Install the packages')
  await page.getByTestId('approval-allow').click()
  await expect(page.getByTestId('message-assistant').last()).toContainText('Shell said')
  await waitForTurnEnd(page)
  await openCard(page, 'Shell')
  await app.screenshot(page, 'quiet-04-shell-spinner')

  await page.getByTestId('new-session-button').click()
  await sendMessage(page, 'Echo and show the tiny image')
  await expect(page.getByTestId('message-assistant').last()).toContainText('Done.', {
    timeout: 30_000
  })
  await waitForTurnEnd(page)
  const imageCard = await openCard(page, 'mcp__everything__get-tiny-image')
  await expect(imageCard.locator('img').first()).toBeVisible()
  await imageCard.scrollIntoViewIfNeeded()
  await app.screenshot(page, 'quiet-05-mcp-name-and-image')
})
