// First run with no provider: the app asks for one, tests it against the fake server, saves it.
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { expect, test } from './fixtures/app'
import { sendMessage } from './fixtures/chat'

test.use({ settingsPreset: 'no-providers' })

test('onboarding: add an OpenAI-compatible provider, Test lists its models, Save', async ({
  page,
  app
}) => {
  await page.goto(app.url)
  const form = page.getByTestId('provider-form')
  await expect(form).toBeVisible()

  await page.getByTestId('provider-kind').selectOption('openai-compatible')
  await page.getByTestId('provider-id').fill('fake')
  await page.getByTestId('provider-base-url').fill(app.fakeModel.openaiBaseUrl)
  await page.getByTestId('provider-key-env').fill('FAKE_MODEL_KEY')
  await page.getByTestId('provider-test-button').click()
  const result = page.getByTestId('provider-test-result')
  await expect(result).toContainText('fake-model')
  await page.getByTestId('default-model-select').selectOption({ label: 'fake / fake-model' })

  await page.getByTestId('provider-save-button').click()
  await expect(page.getByTestId('settings-issues')).toHaveCount(0)
  await expect
    .poll(
      () => (parse(readFileSync(app.settingsFile, 'utf8')) as { providers?: unknown[] }).providers
    )
    .toEqual([
      expect.objectContaining({
        id: 'fake',
        kind: 'openai-compatible',
        base_url: app.fakeModel.openaiBaseUrl,
        api_key_env: 'FAKE_MODEL_KEY'
      })
    ])
  expect(parse(readFileSync(app.settingsFile, 'utf8'))).toMatchObject({
    default_model: { provider: 'fake', model: 'fake-model' }
  })
  // Onboarding closes once a provider is saved, and the new provider answers at once.
  await expect(page.getByTestId('folder-path-input')).toBeVisible()
  app.fakeModel.setScript([{ text: 'Hello through the provider you just added.' }])
  await app.openFolder(page)
  await sendMessage(page, 'Are you there?')
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'Hello through the provider you just added.'
  )
  expect(app.fakeModel.chatRequests().at(-1)?.model).toBe('fake-model')
  expect(app.fakeModel.exhaustedRequests()).toEqual([])

  // The test went through the real key check on the fake server.
  const modelListings = app.fakeModel.requests.filter((r) => r.path === '/openai/v1/models')
  expect(modelListings.length).toBeGreaterThan(0)
  expect(modelListings.at(-1)?.headers['authorization']).toBe('Bearer sk-fake-e2e-key')
})
