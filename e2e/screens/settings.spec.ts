// Settings' screens, photographed in both themes and checked with axe-core in both: the first run,
// the provider form's errors, the section map and its Save bar, the sections other specs edit,
// the broken-file banners, memory and skill drafts. What each screen does is proved by the
// functional spec named above its test.
import { appendFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { latestToolResults } from '../../testing/fake-model-server'
import { expect, test } from '../fixtures/app'
import { sendMessage, waitForTurnEnd } from '../fixtures/chat'
import { writeFiles } from '../fixtures/workspace'

/** A loopback port that was free a moment ago: nothing listens there. */
async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const port = (probe.address() as AddressInfo).port
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

test.describe('with no provider', () => {
  test.use({ settingsPreset: 'no-providers' })

  // settings.spec.ts, settings-map.spec.ts
  test('the first run: the provider form, its errors, a tested provider, saved', async ({
    page,
    app
  }) => {
    await page.goto(app.url)
    const form = page.getByTestId('provider-form')
    const result = page.getByTestId('provider-test-result')
    await expect(form).toBeVisible()
    await app.screenshot(page, 'settings-01-onboarding')

    await page.getByTestId('provider-kind').selectOption('openai-compatible')
    await page.getByTestId('provider-id').fill('local')
    await page.getByTestId('provider-base-url').fill(app.fakeModel.openaiBaseUrl)
    await page.getByTestId('provider-key-env').fill('NOT_SET_IN_THIS_TEST')
    await page.getByTestId('provider-test-button').click()
    await expect(result).toContainText('NOT_SET_IN_THIS_TEST, which is not set')
    await app.screenshot(page, 'settings-map-03-missing-variable', form)
    await page.getByTestId('provider-key-env').fill('')
    await page.getByTestId('provider-base-url').fill('127.0.0.1:11434/v1')
    await page.getByTestId('provider-test-button').click()
    await expect(result).toContainText('has no scheme')
    await app.screenshot(page, 'settings-map-04-malformed-url', form)
    await page.getByTestId('provider-base-url').fill(`http://127.0.0.1:${await closedPort()}/v1`)
    await page.getByTestId('provider-test-button').click()
    await expect(result).toContainText('refused the connection')
    await app.screenshot(page, 'settings-map-05-refused', form)
    await page.getByTestId('provider-base-url').fill(app.fakeModel.openaiBaseUrl)
    await page.getByTestId('provider-secret-input').fill('sk-fake-e2e-key')
    await page.getByTestId('provider-secret-store').click()
    await expect(form.getByText('Key stored in the private key file.')).toBeVisible()
    await page.getByTestId('provider-test-button').click()
    await expect(result).toContainText('Connected')
    await app.screenshot(page, 'settings-map-06-key-file', form)

    await page.getByTestId('provider-id').fill('fake')
    await page.getByTestId('provider-key-env').fill('FAKE_MODEL_KEY')
    await page.getByTestId('provider-test-button').click()
    await expect(result).toContainText('fake-model')
    await page.getByTestId('default-model-select').selectOption({ label: 'fake / fake-model' })
    await result.scrollIntoViewIfNeeded()
    await app.screenshot(page, 'settings-02-tested')
    await page.getByTestId('provider-save-button').click()
    await expect(page.getByTestId('folder-path-input')).toBeVisible()
    await app.screenshot(page, 'settings-03-saved')
  })
})

// settings-map.spec.ts
test('the section map, leaving with unsaved changes, the rule editor, one Save bar', async ({
  page,
  app
}) => {
  await app.openFolder(page)
  await page.getByTestId('settings-button').click()
  const nav = page.getByTestId('settings-nav')
  await nav.getByTestId('settings-nav-memory').click()
  await expect(nav.getByTestId('settings-nav-memory')).toHaveAttribute('aria-current', 'location')
  await app.screenshot(page, 'settings-map-01-sections')

  await nav.getByTestId('settings-nav-permissions').click()
  await page.getByTestId('approval-mode-select').selectOption('read-only')
  await page.getByTestId('settings-close').click()
  const prompt = page.getByTestId('leave-prompt')
  await expect(prompt.getByTestId('leave-prompt-stay')).toBeFocused()
  await app.screenshot(page, 'settings-map-02-leave-prompt')
  await prompt.getByTestId('leave-prompt-stay').click()

  await page.getByTestId('rule-add').click()
  const form = page.getByTestId('rule-form')
  await expect(form.locator('datalist option[value="Shell"]')).toHaveCount(1)
  await form.getByTestId('rule-tool').fill('Shel')
  await expect(form.getByTestId('rule-tool-issue')).toBeVisible()
  await app.screenshot(page, 'settings-map-07-unknown-tool', form)
  await form.getByTestId('rule-tool').fill('Shell')
  await form.getByTestId('rule-command').fill('')
  await form.getByTestId('rule-decision').selectOption('allow')
  await form.getByTestId('rule-save').click()
  await expect(form.getByTestId('rule-all-shell-confirm')).toBeVisible()
  await app.screenshot(page, 'settings-map-08-all-shell', form)
  await form.getByTestId('rule-all-shell-back').click()
  await form.getByText('This project', { exact: true }).click()
  await form.getByTestId('rule-command').fill('npm run lint')
  await form.getByTestId('rule-save').click()
  await expect(form).toHaveCount(0)

  await page.getByTestId('settings-nav-mcp').click()
  await page.getByTestId('mcp-add-button').click()
  await page.getByTestId('mcp-name').fill('idle')
  await page.getByTestId('mcp-command').fill(process.execPath)
  await page.getByTestId('mcp-args').fill('-e\nsetTimeout(() => {}, 60000)')
  await page.getByTestId('mcp-apply').click()
  const prices = page.getByTestId('prices-section')
  await prices.scrollIntoViewIfNeeded()
  await prices.getByTestId('price-model').fill('fake-model')
  await prices.getByTestId('price-input').fill('2')
  await prices.getByTestId('price-output').fill('8')
  await prices.getByTestId('price-add').click()
  await expect(page.getByTestId('settings-save-status')).toHaveText(
    'Unsaved changes in Models, Permissions, MCP servers'
  )
  await app.screenshot(page, 'settings-map-09-save-bar', page.getByTestId('settings-save-bar'))
  await app.screenshot(page, 'settings-map-10-unsaved-sections', nav)
})

// live-settings.spec.ts, checkpoints.spec.ts, sandbox.spec.ts, meters.spec.ts
test('sections other specs edit: tools, checkpoints, the sandbox, prices', async ({
  page,
  app
}) => {
  await app.openFolder(page)
  await page.getByTestId('settings-button').click()
  const tools = page.getByTestId('tools-section')
  await tools.scrollIntoViewIfNeeded()
  await tools.getByTestId('tool-switch-shell').setChecked(false)
  await page.getByTestId('search-section').getByTestId('search-enabled').setChecked(false)
  await tools.scrollIntoViewIfNeeded()
  await app.screenshot(page, 'settings-tools-off')
  await tools.getByTestId('tool-switch-shell').setChecked(true)

  const sandbox = page.getByTestId('sandbox-settings')
  await sandbox.scrollIntoViewIfNeeded()
  await expect(page.getByTestId('sandbox-status')).toHaveText(
    'Shell: confined (bubblewrap), network off'
  )
  await app.screenshot(page, 'sandbox-settings')
  await page.setViewportSize({ width: 900, height: 700 })
  await sandbox.scrollIntoViewIfNeeded()
  await app.screenshot(page, 'sandbox-settings-900')
  await page.setViewportSize({ width: 1280, height: 800 })

  const checkpoints = page.getByTestId('checkpoints-section')
  await checkpoints.scrollIntoViewIfNeeded()
  await expect(checkpoints.getByTestId('checkpoints-status')).toContainText('On:')
  await checkpoints.getByTestId('checkpoints-keep_days').fill('7')
  await checkpoints.getByTestId('checkpoints-keep_days').blur()
  await checkpoints.getByTestId('checkpoints-enabled').setChecked(false)
  await app.screenshot(page, 'checkpoints-06-settings')

  const prices = page.getByTestId('prices-section')
  await prices.scrollIntoViewIfNeeded()
  await prices.getByTestId('price-model').fill('fake-model')
  await prices.getByTestId('price-input').fill('10')
  await prices.getByTestId('price-output').fill('100')
  await prices.getByTestId('price-cacheRead').fill('1')
  await prices.getByTestId('price-add').click()
  await page.getByTestId('provider-save-button').click()
  await expect(page.getByTestId('settings-save-status')).toHaveText('Saved')
  await expect(prices.getByTestId('price-override')).toContainText('$10')
  await app.screenshot(page, 'meters-01-settings-prices', prices)
})

// settings-fail-closed.spec.ts
test('a broken settings file: the last valid settings, then nothing to fall back on', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([{ text: 'Still here, on your last valid settings.' }])
  await app.openFolder(page)
  appendFileSync(app.settingsFile, 'shel: { enabled: false }\n')
  await sendMessage(page, 'Are you there?')
  await waitForTurnEnd(page)
  const banner = page.getByTestId('settings-banner')
  await expect(banner).toContainText('did you mean "shell"?')
  await app.screenshot(page, 'settings-banner-last-valid')

  appendFileSync(app.settingsFile, 'permissions: { mode: allow }\n')
  rmSync(path.join(path.dirname(app.settingsFile), 'settings.last-valid.yaml'))
  await page.getByTestId('composer-input').fill('Delete the build folder')
  await page.getByTestId('send-button').click()
  await expect(page.getByTestId('send-error')).toContainText('Nothing can run')
  await expect(banner).toContainText('no earlier valid copy to use')
  await app.screenshot(page, 'settings-banner-blocked')
  await page.setViewportSize({ width: 900, height: 700 })
  await expect(banner.getByRole('button', { name: 'Open Settings' })).toBeInViewport()
  await app.screenshot(page, 'settings-banner-blocked-narrow')
})

// memory.spec.ts, skill-drafts.spec.ts
test('the memory browser, and a skill draft approved, listed and activated', async ({
  page,
  app
}) => {
  writeFiles(app.workspace, {
    '.mecatl/skills/deploy/SKILL.md':
      '---\nname: deploy\ndescription: Ship a release\n---\nShip.\n',
    '.mecatl/skill-drafts/deploy/SKILL.md':
      '---\nname: deploy\ndescription: A better deploy\nallowed-tools: [Shell]\n---\nShip faster.\n'
  })
  const draft = {
    name: 'greeting-style',
    description: 'How this project greets people; use it for any greeting text.',
    instructions: '# Greetings\n\nSay "Hello, <name>!" and never "Hi".\nKeep it to one line.'
  }
  app.fakeModel.setScript([
    {
      text: 'I will remember that, for this project and about you.',
      toolCalls: [
        {
          name: 'Remember',
          input: { name: 'build-and-test', content: 'Build with `npm run build`.' }
        },
        { name: 'RememberUser', input: { name: 'answer-style', content: 'Prefers short answers.' } }
      ]
    },
    { text: 'Noted both.' },
    { text: 'I will keep that.', toolCalls: [{ name: 'SkillDraft', input: draft }] },
    (req) => ({ text: `Saved. ${latestToolResults(req)[0]?.content.split('.')[0]}.` })
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Remember how this project is built, and that I like short answers')
  await waitForTurnEnd(page)
  await sendMessage(page, 'Remember how we greet people here')
  await expect(page.getByTestId('approval-allow')).toBeVisible()
  await app.screenshot(page, 'skill-drafts-01-approval')
  await page.getByTestId('approval-allow').click()
  await waitForTurnEnd(page)

  await page.getByTestId('settings-button').click()
  const section = page.getByTestId('memory-section')
  await section.scrollIntoViewIfNeeded()
  const item = section.getByTestId('memory-item').and(page.locator('[data-name="build-and-test"]'))
  await item.click()
  const detail = section.getByTestId('memory-detail')
  await expect(detail.getByTestId('memory-content')).toContainText('npm run build')
  await app.screenshot(page, 'memory-01-browser', section)
  await detail.getByTestId('memory-forget').click()
  await expect(detail.getByTestId('memory-confirm')).toContainText('Forget “build-and-test”?')
  await app.screenshot(page, 'memory-02-confirm-forget', section)
  await detail.getByTestId('memory-confirm-yes').click()
  await expect(detail.getByTestId('memory-state')).toHaveText('Forgotten')
  await app.screenshot(page, 'memory-03-forgotten', section)
  await detail.getByTestId('memory-undo').click()
  await detail.getByTestId('memory-confirm-yes').click()
  await expect(detail.getByTestId('memory-state')).toHaveText('Live')
  await app.screenshot(page, 'memory-04-restored', section)
  await section.getByTestId('memory-scope-user').click()
  await section.getByTestId('memory-item').filter({ hasText: 'answer-style' }).click()
  await expect(detail.getByTestId('memory-content')).toContainText('short answers')
  await app.screenshot(page, 'memory-05-user-model', section)

  const skills = page.getByTestId('skills-section')
  await expect(skills.getByTestId('skill-draft')).toHaveCount(2)
  await skills.getByTestId('skill-drafts').scrollIntoViewIfNeeded()
  await app.screenshot(page, 'skill-drafts-02-settings')
  await page.setViewportSize({ width: 900, height: 700 })
  await skills.getByTestId('skill-drafts').scrollIntoViewIfNeeded()
  await app.screenshot(page, 'skill-drafts-03-settings-900')
  await page.setViewportSize({ width: 1280, height: 800 })
  const saved = skills.getByTestId('skill-draft').filter({ hasText: 'greeting-style' })
  await saved.getByTestId('skill-draft-activate').click()
  await expect(skills.getByTestId('skill-draft-note')).toContainText('is now a learned skill')
  await skills.getByTestId('skill-drafts').scrollIntoViewIfNeeded()
  await app.screenshot(page, 'skill-drafts-04-activated')
})
