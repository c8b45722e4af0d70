// Settings apply from the next message, with no restart: Shell and web search turned off in
// Settings leave the next turn's tools, and come back when turned on again.
import { expect, test } from './fixtures/app'
import { sendMessage, waitForTurnEnd } from './fixtures/chat'
import type { Page } from '@playwright/test'

const SWITCHED = ['Shell', 'ShellStatus', 'WebOpen', 'WebSearch']

async function setSwitches(page: Page, on: boolean): Promise<void> {
  await page.getByTestId('settings-button').click()
  const tools = page.getByTestId('tools-section')
  await tools.scrollIntoViewIfNeeded()
  await tools.getByTestId('tool-switch-shell').setChecked(on)
  await page.getByTestId('search-section').getByTestId('search-enabled').setChecked(on)
  await page.getByTestId('provider-save-button').click()
  await expect(page.getByTestId('settings-save-status')).toHaveText('Saved')
}

test('Shell and web search switched off and on in Settings change the next turn’s tools', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([{ text: 'first' }, { text: 'second' }, { text: 'third' }])
  await app.openFolder(page)
  const toolsOf = (turn: number): string[] => app.fakeModel.chatRequests()[turn]?.tools ?? []

  await sendMessage(page, 'one')
  await waitForTurnEnd(page)
  expect(toolsOf(0)).toEqual(expect.arrayContaining(SWITCHED))

  await setSwitches(page, false)
  await page.getByTestId('settings-close').click()
  await sendMessage(page, 'two')
  await expect(page.getByText('second')).toBeVisible()
  expect(toolsOf(1).filter((name) => SWITCHED.includes(name))).toEqual([])
  expect(toolsOf(1)).toEqual(toolsOf(0).filter((name) => !SWITCHED.includes(name)))

  await setSwitches(page, true)
  await page.getByTestId('settings-close').click()
  await sendMessage(page, 'three')
  await expect(page.getByText('third')).toBeVisible()
  expect(toolsOf(2)).toEqual(toolsOf(0))
})
