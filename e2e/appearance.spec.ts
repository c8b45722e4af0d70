// Themes and accessibility: light, dark and following the system (live), picked in Settings →
// Appearance; the live region that says what happened; the job terminal repainted with the theme.
// The screens themselves are photographed and checked with axe-core in both themes by
// screens/*.spec.ts (see fixtures/screens.ts).
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { parse } from 'yaml'
import { latestToolResults } from '../testing/fake-model-server'
import { expect, test } from './fixtures/app'
import { plain, sendMessage, toolCards, waitForTurnEnd } from './fixtures/chat'
import { themeOf } from './fixtures/screens'

// Runs in the page; the e2e project is typed for Node, without the DOM's globals.
interface PageGlobals {
  document: { documentElement: { dataset: Record<string, string | undefined> }; body: unknown }
  getComputedStyle: (element: unknown) => { backgroundColor: string; color: string }
}

/** The painted background of the page, to see that the tokens really changed. */
const backgroundOf = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const dom = globalThis as unknown as PageGlobals
    return dom.getComputedStyle(dom.document.body).backgroundColor
  })

test('the theme is picked in Settings, and "system" follows the system as it changes', async ({
  page,
  app
}) => {
  await page.emulateMedia({ colorScheme: 'light' })
  await app.openFolder(page)
  expect(await themeOf(page)).toBe('light')
  const lightBackground = await backgroundOf(page)

  // The default follows the system, live: no reload.
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect.poll(() => themeOf(page)).toBe('dark')
  expect(await backgroundOf(page)).not.toBe(lightBackground)
  await page.emulateMedia({ colorScheme: 'light' })
  await expect.poll(() => themeOf(page)).toBe('light')

  await page.getByTestId('settings-button').click()
  const section = page.getByTestId('appearance-section')
  await expect(section.getByTestId('theme-system')).toBeChecked()
  // An explicit choice wins over the system, and shows at once.
  await section.getByTestId('theme-dark').check()
  await expect.poll(() => themeOf(page)).toBe('dark')
  await page.getByTestId('provider-save-button').click()
  await expect
    .poll(
      () => (parse(readFileSync(app.settingsFile, 'utf8')) as { appearance?: unknown }).appearance
    )
    .toEqual({ theme: 'dark' })
  await page.emulateMedia({ colorScheme: 'light' })
  expect(await themeOf(page)).toBe('dark')

  // Kept across a reload, and painted before the settings arrive (the first frame is dark).
  await page.reload()
  expect(await themeOf(page)).toBe('dark')
  await expect(page.getByTestId('composer-input')).toBeVisible()
  expect(await themeOf(page)).toBe('dark')

  await page.getByTestId('settings-button').click()
  await page.getByTestId('appearance-section').getByTestId('theme-light').check()
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect.poll(() => themeOf(page)).toBe('light')
  await page.getByTestId('appearance-section').getByTestId('theme-system').check()
  await expect.poll(() => themeOf(page)).toBe('dark')
})

test('the live region says what happened, and the job terminal repaints with the theme', async ({
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

  await sendMessage(page, 'What does greet do?')
  await waitForTurnEnd(page)
  await expect(toolCards(page, 'Read')).toHaveCount(1)
  await expect(page.getByTestId('message-assistant').last()).toContainText('one argument')
  await expect(page.getByTestId('announcer')).toHaveText(/^Reply finished in /)

  await sendMessage(page, 'Start the dev server')
  const modal = page.getByTestId('approval-modal')
  await expect(modal).toBeVisible()
  await expect(page.getByTestId('announcer')).toHaveText(/^Shell is waiting for your approval in /)
  await page.getByTestId('approval-allow').click()
  await waitForTurnEnd(page)

  await page.getByTestId('jobs-toggle').click()
  const monitor = page.getByTestId('job-monitor')
  await expect(monitor.getByTestId('job-terminal')).toContainText('ready in 312 ms')
  // The terminal is drawn by xterm.js, out of CSS's reach: it repaints when the theme changes.
  // xterm.js writes its theme's foreground into a style sheet for its rows.
  const rows = monitor.locator('.xterm-rows')
  const terminalText = (): Promise<string> =>
    rows.evaluate((el) => (globalThis as unknown as PageGlobals).getComputedStyle(el).color)
  await expect.poll(terminalText).toBe('rgb(28, 28, 33)')
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect.poll(terminalText).toBe('rgb(227, 227, 232)')
  await page.emulateMedia({ colorScheme: 'light' })
  await expect.poll(terminalText).toBe('rgb(28, 28, 33)')

  // The job ends; the live region says so.
  writeFileSync(path.join(app.workspace, '.dev-done'), '')
  await expect(page.getByTestId('announcer')).toHaveText(
    'Job finished: Start the dev server (exit code 0).'
  )
})
