// Skills, slash commands, instruction files and AskUser, as a person meets them in the window.
import { latestToolResults } from '../testing/fake-model-server'
import type { NormalizedRequest } from '../testing/fake-model-server'
import { expect, test } from './fixtures/app'
import { waitForTurnEnd } from './fixtures/chat'
import { writeFiles } from './fixtures/workspace'

function lastUserText(req: NormalizedRequest): string {
  return req.messages.filter((m) => m.role === 'user').at(-1)?.text ?? ''
}

test('a project command with $ARGUMENTS and a skill through the palette; instructions shown', async ({
  page,
  app
}) => {
  writeFiles(app.workspace, {
    'AGENTS.md': 'Answer in haiku.\n',
    '.claude/commands/review.md':
      '---\ndescription: Review a file for bugs\n---\nReview $ARGUMENTS for bugs and unclear names.\n',
    '.mecatl/skills/release-notes/SKILL.md':
      '---\r\nname: release-notes\r\ndescription: Write release notes grouped by area\r\nlicense: MIT\r\n---\r\nGroup the changes by area.',
    '.mecatl/skills/broken/SKILL.md': '---\nname: broken\ndescription: [oops\n---\n',
    '.mecatl/commands/help.md': 'shadowed by the built-in\n'
  })
  app.fakeModel.setScript([
    (req) => ({
      text: `Got: ${lastUserText(req)} | system has haiku: ${req.system.includes('haiku')}`
    }),
    (req) => ({ text: `Skill prompt: ${lastUserText(req)}` })
  ])
  await app.openFolder(page)
  await expect(page.getByTestId('instructions-line')).toHaveText('Instructions: AGENTS.md')

  const input = page.getByTestId('composer-input')
  await input.fill('/rev')
  const palette = page.getByTestId('prompt-palette')
  await expect(palette).toContainText('/review')
  await expect(palette).toContainText('Review a file for bugs')
  await input.fill('/')
  await expect(palette).toContainText('/new')
  await expect(palette).toContainText('/release-notes')

  await input.fill('/rev')
  await input.press('Enter')
  await expect(input).toHaveValue('/review ')
  await input.pressSequentially('src/greet.ts')
  await input.press('Enter')
  const user = page.getByTestId('message-user').last()
  await expect(user).toContainText('Review src/greet.ts for bugs and unclear names.')
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'Got: Review src/greet.ts for bugs and unclear names. | system has haiku: true'
  )
  await waitForTurnEnd(page)

  // A skill through the palette: arrow down to it, Tab, then send.
  await input.fill('/release')
  await expect(palette.getByTestId('prompt-palette-item').first()).toContainText('/release-notes')
  await input.press('Tab')
  await expect(input).toHaveValue('/release-notes ')
  await input.press('Enter')
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'Skill prompt: Group the changes by area.'
  )
  await waitForTurnEnd(page)

  // /help lists the commands; the built-in wins over help.md.
  await input.fill('/help')
  await input.press('Enter')
  const help = page.getByTestId('command-help')
  await expect(help).toContainText('/review')
  await expect(help).toContainText('List the commands you can use here')
  await input.press('Escape')
  await expect(help).toBeHidden()

  // /plan toggles planning mode for the session.
  await input.fill('/plan')
  await input.press('Enter')
  await expect(input).toHaveValue('')
  await expect(page.getByTestId('planning-banner')).toBeVisible()

  // /model moves focus to the model picker; /new starts a second session.
  await input.fill('/model')
  await input.press('Enter')
  await expect(page.getByTestId('model-picker')).toBeFocused()
  await input.fill('/new')
  await input.press('Enter')
  await expect(page.getByTestId('session-item')).toHaveCount(2)
  await expect(page.getByTestId('chat-empty')).toBeVisible()

  // The skills list in settings: the clean one, the malformed one with why, the clash.
  await page.getByTestId('settings-button').click()
  const section = page.getByTestId('skills-section')
  await expect(section.getByTestId('skill-row')).toHaveCount(2)
  await expect(section).toContainText('Write release notes grouped by area')
  await expect(section).toContainText('not valid YAML')
  await expect(section.getByTestId('command-problems')).toContainText('/help from')
  expect(app.fakeModel.exhaustedRequests()).toEqual([])
})

test('the model asks with AskUser and the turn continues with the answer', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    {
      text: 'One question first.',
      toolCalls: [
        {
          name: 'AskUser',
          input: { question: 'Which greeting should I use?', options: ['Hello', 'Good morning'] }
        }
      ]
    },
    {
      toolCalls: [{ name: 'AskUser', input: { question: 'And whose name goes in it?' } }]
    },
    (req) => ({ text: `Answers: ${latestToolResults(req)[0]?.content}` })
  ])
  await app.openFolder(page)
  await page.getByTestId('composer-input').fill('Write a greeting')
  await page.getByTestId('send-button').click()

  const card = page.getByTestId('question-card')
  await expect(card).toContainText('Which greeting should I use?')
  await expect(card.getByTestId('question-option')).toHaveText(['Hello', 'Good morning'])
  await card.getByTestId('question-option').filter({ hasText: 'Good morning' }).click()

  await expect(card).toContainText('And whose name goes in it?')
  await expect(card.getByTestId('question-option')).toHaveCount(0)
  await card.getByTestId('question-answer-input').fill('Ada')
  await card.getByTestId('question-answer-input').press('Enter')
  await expect(card).toBeHidden()
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'Answers: The person answered: Ada'
  )
  await waitForTurnEnd(page)
  const second = app.fakeModel.chatRequests()[2]
  expect(second && latestToolResults(second)[0]?.content).toBe('The person answered: Ada')
  expect(
    app.fakeModel.chatRequests()[1] &&
      latestToolResults(app.fakeModel.chatRequests()[1]!)[0]?.content
  ).toBe('The person answered: Good morning')
})
