// Settings → Permissions → Sandbox says what a confined command can see, from `sandbox.view`:
// the project read-write and its .git read-only, the system, the home directory empty but for
// its toolchains, the sockets and variables a person lets through; and a path added for this
// project only lands under sandbox.projects in the settings file and in the view.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import { expect, test } from './fixtures/app'
import { agentSocket, makePersonHome, person, personEnv } from './fixtures/person-home'

test.use({ serverEnv: personEnv })

let takeAway: (() => Promise<void>) | undefined
test.beforeAll(async () => {
  takeAway = await makePersonHome()
})
test.afterAll(async () => {
  await takeAway?.()
})

interface SavedSandbox {
  sandbox?: {
    home_defaults?: boolean
    sockets?: string[]
    projects?: Record<string, { readable?: string[]; writable?: string[] }>
  }
  shell?: { env_passthrough?: string[] }
}

test('Settings → Sandbox says what a command can see, and adds a path for this project only', async ({
  page,
  app
}) => {
  execFileSync('git', ['init', '-q'], { cwd: app.workspace })
  await app.openFolder(page)
  await page.getByTestId('settings-button').click()
  const sight = page.getByTestId('sandbox-sight')
  await sight.scrollIntoViewIfNeeded()

  // The project read-write, its git folder read-only and why.
  const project = page.getByTestId('sandbox-sight-project')
  await expect(project).toContainText(app.workspace)
  await expect(project).toContainText('read-write')
  const git = page.getByTestId('sandbox-sight-git')
  await expect(git).toContainText(path.join(app.workspace, '.git'))
  await expect(git).toContainText('read-only')
  await expect(git).toContainText('runs later when you use git')
  await expect(page.getByTestId('sandbox-sight-system')).toContainText('/usr')
  if (process.getuid?.() === 0) {
    await expect(page.getByTestId('sandbox-sight-root')).toContainText(
      'Commands still run with no special powers'
    )
  }

  // The home directory: empty but for the defaults that exist here, git's settings filtered.
  const home = page.getByTestId('sandbox-sight-home')
  await expect(home).toContainText(person)
  await expect(home).toContainText('empty, except')
  const defaults = page.getByTestId('sandbox-home-defaults').locator('li')
  await expect(defaults).toHaveCount(3)
  await expect(defaults.nth(0)).toContainText('~/.gitconfig')
  await expect(defaults.nth(0)).toContainText('filtered')
  await expect(defaults.nth(1)).toContainText('~/.cargo/bin')
  await expect(defaults.nth(2)).toContainText('~/.npm/_cacache')
  await expect(home).not.toContainText('.ssh')
  await expect(page.getByTestId('sandbox-home-defaults-switch')).toBeChecked()

  // No socket, no network, the variables every command gets and the keys none ever does.
  await expect(page.getByTestId('sandbox-sight-sockets')).toContainText('none')
  await expect(page.getByTestId('sandbox-sight-network')).toContainText('none')
  await expect(page.getByTestId('sandbox-sight-own')).toContainText('never')
  await expect(page.getByTestId('sandbox-env-fixed')).toContainText('PATH')
  await expect(page.getByTestId('sandbox-env-fixed')).toContainText('HOME')
  await expect(page.getByTestId('sandbox-env-never')).toContainText('FAKE_MODEL_KEY')

  // The ssh-agent's socket let through, and variables: a key Mecatl uses and a secret warned of.
  await page.getByTestId('sandbox-sockets').fill('$SSH_AUTH_SOCK')
  await page.getByTestId('sandbox-sockets').blur()
  const variables = page.getByTestId('sandbox-env_passthrough')
  await variables.fill('FAKE_MODEL_KEY')
  await variables.blur()
  await expect(page.getByTestId('sandbox-env-warnings')).toContainText(
    'FAKE_MODEL_KEY holds a key Mecatl itself uses'
  )
  await variables.fill('JAVA_HOME\nGITHUB_TOKEN')
  await variables.blur()
  const warnings = page.getByTestId('sandbox-env-warnings')
  await expect(warnings).toContainText('GITHUB_TOKEN looks like a secret')
  await expect(warnings).not.toContainText('JAVA_HOME')

  // A path for this project only: a partial one is refused with why, whole ones are listed.
  const input = page.getByTestId('sandbox-project-input')
  await input.fill('datasets')
  await page.getByTestId('sandbox-project-add-button').click()
  await expect(page.getByTestId('sandbox-project')).toContainText('Give a whole path')
  await input.fill('~/datasets')
  await input.press('Enter')
  await input.fill('/srv/build-cache')
  await page.getByTestId('sandbox-project-access').selectOption('writable')
  await page.getByTestId('sandbox-project-add-button').click()
  const rows = page.getByTestId('sandbox-project-path')
  await expect(rows).toHaveCount(2)
  await expect(rows.nth(0)).toContainText('read-only')
  await expect(rows.nth(0)).toContainText('~/datasets')
  await expect(rows.nth(1)).toContainText('read-write')
  await expect(rows.nth(1)).toContainText('/srv/build-cache')
  await expect(sight).toContainText('your changes count once saved')

  await page.getByTestId('provider-save-button').click()
  await expect(page.getByTestId('settings-save-status')).toHaveText('Saved')
  const saved = parse(readFileSync(app.settingsFile, 'utf8')) as SavedSandbox
  expect(saved.sandbox?.projects).toEqual({
    [app.workspace]: { readable: ['~/datasets'], writable: ['/srv/build-cache'] }
  })
  expect(saved.sandbox?.sockets).toEqual(['$SSH_AUTH_SOCK'])
  expect(saved.shell?.env_passthrough).toEqual(['JAVA_HOME', 'GITHUB_TOKEN'])

  // Saved, the view has them: the socket where the agent is now, the paths as they resolve.
  await expect(sight).not.toContainText('your changes count once saved')
  const sockets = page.getByTestId('sandbox-sight-sockets')
  await expect(sockets).toContainText('$SSH_AUTH_SOCK')
  await expect(sockets).toContainText(agentSocket)
  await expect(page.getByTestId('sandbox-sight-readable')).toContainText(
    path.join(person, 'datasets')
  )
  await expect(page.getByTestId('sandbox-sight-writable')).toContainText('/srv/build-cache')

  // The home directory's defaults switched off: once saved, nothing of it is there.
  await page.getByTestId('sandbox-home-defaults-switch').uncheck()
  await page.getByTestId('provider-save-button').click()
  await expect(page.getByTestId('settings-save-status')).toHaveText('Saved')
  expect((parse(readFileSync(app.settingsFile, 'utf8')) as SavedSandbox).sandbox).toMatchObject({
    home_defaults: false
  })
  await expect(home).toContainText('the usual toolchains and caches are left out')
  await expect(page.getByTestId('sandbox-home-defaults')).toHaveCount(0)
  await expect(page.getByTestId('sandbox-home-defaults-switch')).not.toBeChecked()
})
