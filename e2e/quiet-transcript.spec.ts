// A quieter transcript: runs of read-only calls fold into one line that opens to the cards (and
// opens by itself for a find hit inside), chips only where they are news, no gaps for empty
// steps, shell output as the terminal showed it, MCP tools by server and name, images at their
// natural size.
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { stringify } from 'yaml'
import { latestToolResults } from '../testing/fake-model-server'
import { expect, test } from './fixtures/app'
import { plain, sendMessage, toolCards, waitForTurnEnd } from './fixtures/chat'
import { everythingScript } from './fixtures/workspace'

test('read-only calls fold into one line that opens to their cards, and find opens it', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    {
      text: 'Looking around the project.',
      toolCalls: [
        { name: 'Read', input: { path: 'src/greet.ts' } },
        { name: 'Read', input: { path: 'README.md' } }
      ]
    },
    // A step with no text between calls: it must leave no gap.
    {
      toolCalls: [
        { name: 'Grep', input: { pattern: 'greet' } },
        { name: 'Read', input: { path: 'notes/todo.md' } }
      ]
    },
    { text: 'The greeting lives in src/greet.ts.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Where is the greeting?')
  await expect(page.getByTestId('message-assistant').last()).toContainText('lives in src/greet.ts')
  await waitForTurnEnd(page)

  const group = page.getByTestId('tool-group')
  await expect(group).toHaveCount(1)
  await expect(group.getByTestId('tool-group-toggle')).toHaveText(
    'Read 3 files, searched 1 pattern'
  )
  await expect(group).toHaveAttribute('data-open', 'false')
  await expect(toolCards(page)).toHaveCount(0)
  // Two replies with text, and nothing rendered for the step without any.
  await expect(page.getByTestId('message-assistant')).toHaveCount(2)

  await group.getByTestId('tool-group-toggle').click()
  await expect(group).toHaveAttribute('data-open', 'true')
  await expect(toolCards(page)).toHaveCount(4)
  // "read-only · private" once, where the run starts, not on every card.
  const chips = toolCards(page).getByTestId('tool-capabilities')
  await expect(chips).toHaveCount(1)
  await expect(toolCards(page).first().getByTestId('tool-capabilities')).toHaveText(
    /read-only\s*private/
  )

  // Closed again, find still reaches text inside a folded card: the group and card open for it.
  await group.getByTestId('tool-group-toggle').click()
  await expect(toolCards(page)).toHaveCount(0)
  await page.getByTestId('composer-input').click()
  await page.keyboard.press('ControlOrMeta+f')
  await page.getByTestId('find-input').fill('buy milk')
  await expect(group).toHaveAttribute('data-open', 'true')
  await expect(page.getByTestId('find-count')).toHaveText('1 of 1')
  const todo = toolCards(page, 'Read').nth(2)
  await expect(todo.getByTestId('tool-output')).toContainText('buy milk')
})

test('shell output shows what the terminal finally showed: no spinner frames', async ({
  page,
  app
}) => {
  // npm draws its spinner as: cursor to column 1, erase the line, the next frame.
  const frames = ['⠙', '⠹', '⠸', '⠼', '⠴', '⠦']
  const spin = frames.map((glyph) => `\\033[1G\\033[2K${glyph}`).join('')
  const command = `printf '\\033[?25l${spin}\\033[1G\\033[2K\\033[?25h\\033[32madded 3 packages\\033[0m in 1s\\r\\n'`
  app.fakeModel.setScript([
    { text: 'Installing.', toolCalls: [{ name: 'Shell', input: { command } }] },
    (req) => ({ text: `Shell said: ${plain(latestToolResults(req)[0]?.content ?? 'nothing')}` })
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Install the packages')
  await expect(page.getByTestId('approval-modal')).toBeVisible()
  await page.getByTestId('approval-allow').click()
  const card = toolCards(page, 'Shell')
  await expect(card).toHaveAttribute('data-state', 'done')
  await waitForTurnEnd(page)
  // The model was sent the same: the final line, not every frame run together.
  const reply = page.getByTestId('message-assistant').last()
  await expect(reply).toContainText('added 3 packages in 1s')
  for (const glyph of frames) await expect(reply).not.toContainText(glyph)

  await card.locator('.tool-card__header').click()
  const output = card.getByTestId('tool-output')
  await expect(output).toContainText('added 3 packages in 1s')
  for (const glyph of frames) await expect(output).not.toContainText(glyph)
})

test('an MCP tool reads as "server › tool", and its small image keeps its natural size', async ({
  page,
  app
}) => {
  mkdirSync(path.join(app.workspace, '.mecatl'), { recursive: true })
  writeFileSync(
    path.join(app.workspace, '.mecatl', 'settings.yaml'),
    stringify({
      mcp: [{ name: 'everything', command: process.execPath, args: [everythingScript] }]
    })
  )
  app.fakeModel.setScript([
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
  await sendMessage(page, 'Echo and show the tiny image')
  await expect(page.getByTestId('message-assistant').last()).toContainText('Done.', {
    timeout: 30_000
  })
  await waitForTurnEnd(page)

  const echo = toolCards(page, 'mcp__everything__echo')
  await expect(echo.locator('.tool-card__name')).toHaveText('everything › echo')
  // The model still sees (and called) the registered name.
  expect(JSON.stringify(app.fakeModel.requests.at(-1))).toContain('mcp__everything__echo')

  const imageCard = toolCards(page, 'mcp__everything__get-tiny-image')
  await expect(imageCard.locator('.tool-card__name')).toHaveText('everything › get-tiny-image')
  await imageCard.locator('.tool-card__header').click()
  const image = imageCard.locator('img').first()
  await expect(image).toBeVisible()
  const size = await image.evaluate((element) => {
    // Runs in the page; the e2e project is typed for Node, without the DOM's globals.
    const img = element as unknown as {
      naturalWidth: number
      naturalHeight: number
      clientWidth: number
      clientHeight: number
      parentElement: { clientWidth: number } | null
    }
    return {
      natural: [img.naturalWidth, img.naturalHeight],
      shown: [img.clientWidth, img.clientHeight],
      column: img.parentElement?.clientWidth ?? 0
    }
  })
  expect(size.natural[0]).toBeGreaterThan(0)
  expect(size.natural[0]).toBeLessThan(size.column)
  expect(size.shown).toEqual(size.natural)
})
