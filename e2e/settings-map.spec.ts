// Settings as a map: the section list, one Save bar and a question before unsaved changes are
// left; provider errors that say what is wrong; keys typed in browser mode; the rule editor's checks.
import { readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { parse } from 'yaml'
import { expect, test } from './fixtures/app'

const SECTIONS = [
  'Providers',
  'Models',
  'Permissions',
  'MCP servers',
  'Web',
  'Memory',
  'Skills and commands',
  'Appearance',
  'Notifications'
]

/** A loopback port that was free a moment ago: nothing listens there. */
async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const port = (probe.address() as AddressInfo).port
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

const modeInFile = (file: string): unknown =>
  (parse(readFileSync(file, 'utf8')) as { permissions?: { mode?: unknown } }).permissions?.mode

test('the section list, and leaving with unsaved changes asks first', async ({ page, app }) => {
  await app.openFolder(page)
  await page.getByTestId('settings-button').click()
  const nav = page.getByTestId('settings-nav')
  await expect(nav.getByRole('link')).toHaveText(SECTIONS)
  await nav.getByTestId('settings-nav-memory').click()
  await expect(page.getByTestId('settings-block-memory')).toBeInViewport()
  await expect(nav.getByTestId('settings-nav-memory')).toHaveAttribute('aria-current', 'location')

  // One Save bar: moving to another section keeps the edit pending, and says so.
  await nav.getByTestId('settings-nav-permissions').click()
  await page.getByTestId('approval-mode-select').selectOption('read-only')
  await expect(page.getByTestId('settings-nav-unsaved')).toBeVisible()
  await nav.getByTestId('settings-nav-providers').click()
  await expect(page.getByTestId('leave-prompt')).toBeHidden()
  await expect(page.getByTestId('settings-save-status')).toHaveText(
    'Unsaved changes in Permissions'
  )
  await expect(nav.getByTestId('settings-nav-dirty-permissions')).toBeVisible()

  // Back asks; Stay keeps the edit on screen.
  await page.getByTestId('settings-close').click()
  const prompt = page.getByTestId('leave-prompt')
  await expect(prompt).toBeVisible()
  await expect(prompt).toContainText('Leave Settings with unsaved changes?')
  await expect(prompt.getByTestId('leave-prompt-stay')).toBeFocused()
  await prompt.getByTestId('leave-prompt-stay').click()
  await expect(prompt).toBeHidden()
  await expect(page.getByTestId('approval-mode-current')).toHaveText('read-only')
  // Escape is Stay too.
  await page.getByTestId('settings-close').click()
  await expect(prompt).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(prompt).toBeHidden()
  await expect(page.getByTestId('settings-screen')).toBeVisible()

  // Discard leaves, and nothing was written.
  await page.getByTestId('settings-close').click()
  await prompt.getByTestId('leave-prompt-discard').click()
  await expect(page.getByTestId('settings-screen')).toBeHidden()
  expect(modeInFile(app.settingsFile)).toBe('ask')
  await page.getByTestId('settings-button').click()
  await expect(page.getByTestId('approval-mode-current')).toHaveText('ask')

  // Save and leave writes the edit, then leaves.
  await page.getByTestId('approval-mode-select').selectOption('read-only')
  await page.getByTestId('settings-close').click()
  await prompt.getByTestId('leave-prompt-save').click()
  await expect(page.getByTestId('settings-screen')).toBeHidden()
  await expect.poll(() => modeInFile(app.settingsFile)).toBe('read-only')

  // Nothing pending: Back leaves at once.
  await page.getByTestId('settings-button').click()
  await page.getByTestId('settings-close').click()
  await expect(page.getByTestId('settings-screen')).toBeHidden()

  // Closing the tab with an edit pending asks too (the browser's own question).
  await page.getByTestId('settings-button').click()
  await page.getByTestId('approval-mode-select').selectOption('allow')
  const asked = page.waitForEvent('dialog')
  await page.close({ runBeforeUnload: true })
  const dialog = await asked
  expect(dialog.type()).toBe('beforeunload')
  await dialog.dismiss()
})

test.describe('provider setup', () => {
  test.use({ settingsPreset: 'no-providers' })

  test('errors name the missing variable, the malformed URL and the refused address; a typed key is kept 0600', async ({
    page,
    app
  }) => {
    await page.goto(app.url)
    const form = page.getByTestId('provider-form')
    const result = page.getByTestId('provider-test-result')
    await page.getByTestId('provider-kind').selectOption('openai-compatible')
    await page.getByTestId('provider-id').fill('local')

    // A named key variable that is not set is said to be missing, for a compatible server too.
    await page.getByTestId('provider-base-url').fill(app.fakeModel.openaiBaseUrl)
    await page.getByTestId('provider-key-env').fill('NOT_SET_IN_THIS_TEST')
    await page.getByTestId('provider-test-button').click()
    await expect(result).toContainText('NOT_SET_IN_THIS_TEST, which is not set')
    await expect(result).not.toContainText('401')

    // A malformed base URL says what is malformed.
    await page.getByTestId('provider-key-env').fill('')
    await page.getByTestId('provider-base-url').fill('127.0.0.1:11434/v1')
    // Said beside the field as it is typed, and again by Test.
    await expect(page.getByTestId('issue-base_url')).toContainText('has no scheme')
    await expect(page.getByTestId('provider-base-url')).toHaveAttribute('aria-invalid', 'true')
    await page.getByTestId('provider-test-button').click()
    await expect(result).toContainText('has no scheme: start it with http:// or https://')

    // A closed port on 127.0.0.1: which address, and that it refused.
    const port = await closedPort()
    await page.getByTestId('provider-base-url').fill(`http://127.0.0.1:${port}/v1`)
    await page.getByTestId('provider-test-button').click()
    await expect(result).toContainText(`(127.0.0.1:${port})`)
    await expect(result).toContainText('refused the connection')

    // Browser mode: the key can be typed, and goes to a 0600 file in the data directory.
    await page.getByTestId('provider-base-url').fill(app.fakeModel.openaiBaseUrl)
    const where = page.getByTestId('provider-secret-where')
    await expect(where).toContainText('a file only you can read (mode 0600)')
    const keyFile = (await where.locator('.mono').first().textContent()) ?? ''
    expect(keyFile.endsWith('provider-keys.json')).toBe(true)
    await page.getByTestId('provider-secret-input').fill('sk-fake-e2e-key')
    await page.getByTestId('provider-secret-store').click()
    await expect(form.getByText('Key stored in the private key file.')).toBeVisible()
    expect(statSync(keyFile).mode & 0o777).toBe(0o600)
    expect(readFileSync(keyFile, 'utf8')).toContain('sk-fake-e2e-key')
    await page.getByTestId('provider-test-button').click()
    await expect(result).toContainText('Connected')
    // The settings file names the key; it never holds it.
    await page.getByTestId('provider-save-button').click()
    await expect
      .poll(() => readFileSync(app.settingsFile, 'utf8'))
      .toContain('api_key_secret: local.api_key')
    expect(readFileSync(app.settingsFile, 'utf8')).not.toContain('sk-fake-e2e-key')
  })
})

test('the rule editor refuses an unknown tool and asks about a rule for every Shell call', async ({
  page,
  app
}) => {
  await app.openFolder(page)
  await page.getByTestId('settings-button').click()
  await page.getByTestId('settings-nav-permissions').click()
  await page.getByTestId('rule-add').click()
  const form = page.getByTestId('rule-form')
  // The catalog arrives from tools.list; wait for it before reading what is offered.
  await expect(form.locator('datalist option[value="Shell"]')).toHaveCount(1)
  const offered = await form
    .locator('datalist option')
    .evaluateAll((options) => options.map((o) => o.getAttribute('value')))
  expect(offered).toContain('Shell')
  expect(offered).not.toContain('Shel')

  await form.getByTestId('rule-tool').fill('Shel')
  await expect(form.getByTestId('rule-tool-issue')).toHaveText(
    "“Shel” is not a tool in this project's catalog; choose one from the list."
  )
  await expect(form.getByTestId('rule-tool')).toHaveAttribute('aria-invalid', 'true')
  await expect(form.getByTestId('rule-save')).toBeDisabled()

  // Shell with no command prefix covers every call: Save asks first.
  await form.getByTestId('rule-tool').fill('Shell')
  await expect(form.getByTestId('rule-tool-issue')).toHaveCount(0)
  await form.getByTestId('rule-command').fill('')
  await form.getByTestId('rule-decision').selectOption('allow')
  await expect(form.getByTestId('rule-save')).toBeEnabled()
  await form.getByTestId('rule-save').click()
  const confirm = form.getByTestId('rule-all-shell-confirm')
  await expect(confirm).toContainText('runs every Shell command without asking')
  await confirm.getByTestId('rule-all-shell-back').click()
  await expect(confirm).toHaveCount(0)
  await expect(form.getByTestId('rule-command')).toBeFocused()
  await expect(page.getByTestId('rule-row')).toHaveCount(0)

  await form.getByTestId('rule-save').click()
  await form.getByTestId('rule-all-shell-save').click()
  await expect(form).toHaveCount(0)
  await expect(page.getByTestId('rule-group-session').getByTestId('rule-row')).toContainText(
    'Shell'
  )
})

test('one Save bar for rules, MCP servers and prices; every way out asks first', async ({
  page,
  app
}) => {
  await app.openFolder(page)
  await page.getByTestId('settings-button').click()
  const status = page.getByTestId('settings-save-status')

  // A project rule: "Add rule" puts it in the draft and writes nothing.
  await page.getByTestId('settings-nav-permissions').click()
  await page.getByTestId('rule-add').click()
  const form = page.getByTestId('rule-form')
  await expect(form.locator('datalist option[value="Shell"]')).toHaveCount(1)
  await form.getByText('This project', { exact: true }).click()
  await form.getByTestId('rule-command').fill('npm run lint')
  await form.getByTestId('rule-save').click()
  await expect(form).toHaveCount(0)
  const projectRules = page.getByTestId('rule-group-project').getByTestId('rule-row')
  await expect(projectRules).toContainText('npm run lint')

  // An MCP server, added to the draft.
  await page.getByTestId('settings-nav-mcp').click()
  await page.getByTestId('mcp-add-button').click()
  await page.getByTestId('mcp-name').fill('idle')
  await page.getByTestId('mcp-command').fill(process.execPath)
  await page.getByTestId('mcp-args').fill('-e\nsetTimeout(() => {}, 60000)')
  await page.getByTestId('mcp-apply').click()
  await expect(page.locator('[data-testid="mcp-server"][data-name="idle"]')).toBeVisible()

  // A price, added to the draft.
  const prices = page.getByTestId('prices-section')
  await prices.scrollIntoViewIfNeeded()
  await prices.getByTestId('price-model').fill('fake-model')
  await prices.getByTestId('price-input').fill('2')
  await prices.getByTestId('price-output').fill('8')
  await prices.getByTestId('price-add').click()
  await expect(prices.getByTestId('price-override')).toHaveCount(1)

  // One bar names the three sections; the list marks them; nothing is on disk yet.
  await expect(status).toHaveText('Unsaved changes in Models, Permissions, MCP servers')
  const nav = page.getByTestId('settings-nav')
  for (const id of ['models', 'permissions', 'mcp']) {
    await expect(nav.getByTestId(`settings-nav-dirty-${id}`)).toBeVisible()
  }
  await expect(nav.getByTestId('settings-nav-dirty-providers')).toHaveCount(0)
  await expect(page.getByTestId('rule-save')).toHaveCount(0)
  expect(readFileSync(app.settingsFile, 'utf8')).not.toContain('idle')

  // Ctrl/Cmd+L leaves Settings for the message box: it asks first, and Stay keeps everything.
  const prompt = page.getByTestId('leave-prompt')
  await page.keyboard.press('ControlOrMeta+KeyL')
  await expect(prompt).toBeVisible()
  await prompt.getByTestId('leave-prompt-stay').click()
  await expect(prompt).toBeHidden()
  await expect(page.getByTestId('settings-screen')).toBeVisible()
  await expect(status).toHaveText('Unsaved changes in Models, Permissions, MCP servers')
  // Ctrl/Cmd+F too.
  await page.keyboard.press('ControlOrMeta+KeyF')
  await expect(prompt).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(prompt).toBeHidden()
  await expect(projectRules).toContainText('npm run lint')

  // Save writes all three at once.
  await page.getByTestId('provider-save-button').click()
  await expect(status).toHaveText('Saved')
  await expect(nav.getByTestId('settings-nav-unsaved')).toHaveCount(0)
  const user = parse(readFileSync(app.settingsFile, 'utf8')) as {
    mcp?: { name: string }[]
    providers?: { id: string; prices?: Record<string, unknown> }[]
  }
  expect(user.mcp?.map((s) => s.name)).toEqual(['idle'])
  expect(user.providers?.find((p) => p.id === 'fake')?.prices).toEqual({
    'fake-model': { input: 2, output: 8 }
  })
  const project = parse(readFileSync(`${app.workspace}/.mecatl/settings.yaml`, 'utf8')) as {
    permissions?: { rules?: unknown[] }
  }
  expect(project.permissions?.rules).toEqual([
    { tool: 'Shell', command: 'npm run lint', decision: 'allow' }
  ])

  // Read back after a reload.
  await page.reload()
  await page.getByTestId('settings-button').click()
  await expect(projectRules).toContainText('npm run lint')
  await expect(page.locator('[data-testid="mcp-server"][data-name="idle"]')).toBeVisible()
  await expect(prices.getByTestId('price-override')).toContainText('$2')
  await expect(status).not.toContainText('Unsaved')

  // A toggle is a draft too: the theme previews, Back asks, Discard puts it back.
  const theme = (): Promise<string | null> => page.locator('html').getAttribute('data-theme')
  const before = await theme()
  const other = before === 'dark' ? 'light' : 'dark'
  await page.getByTestId('settings-nav-appearance').click()
  await page.getByTestId(`theme-${other}`).check()
  await expect.poll(theme).toBe(other)
  await expect(status).toHaveText('Unsaved changes in Appearance')
  await page.getByTestId('settings-close').click()
  await expect(prompt).toBeVisible()
  await prompt.getByTestId('leave-prompt-discard').click()
  await expect(page.getByTestId('settings-screen')).toBeHidden()
  await expect.poll(theme).toBe(before)
  expect(readFileSync(app.settingsFile, 'utf8')).not.toContain(`theme: ${other}`)
})
