// The model saves what it learned as a skill draft; the person reads it in Settings → Skills and
// activates it; the next turn's Skill tool names it. A draft that would take a project skill's
// name cannot be activated, and says why.
import { latestToolResults } from '../testing/fake-model-server'
import { expect, test } from './fixtures/app'
import { readWorkspaceFile, sendMessage, toolCards, waitForTurnEnd } from './fixtures/chat'
import { writeFiles } from './fixtures/workspace'

interface SentTool {
  function: { name: string; description: string }
}

const draft = {
  name: 'greeting-style',
  description: 'How this project greets people; use it for any greeting text.',
  instructions: '# Greetings\n\nSay "Hello, <name>!" and never "Hi".\nKeep it to one line.'
}

test('a draft the model saved is activated in Settings → Skills and listed by the next turn', async ({
  page,
  app
}) => {
  writeFiles(app.workspace, {
    '.mecatl/skills/deploy/SKILL.md':
      '---\nname: deploy\ndescription: Ship a release\n---\nShip.\n',
    // Put there some other way (a clone, Write): it takes the project skill's name.
    '.mecatl/skill-drafts/deploy/SKILL.md':
      '---\nname: deploy\ndescription: A better deploy\nallowed-tools: [Shell]\n---\nShip faster.\n'
  })
  app.fakeModel.setScript([
    { text: 'I will keep that.', toolCalls: [{ name: 'SkillDraft', input: draft }] },
    (req) => ({ text: `Saved. ${latestToolResults(req)[0]?.content.split('.')[0]}.` }),
    { text: 'Here is the greeting.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Remember how we greet people here')
  // SkillDraft writes in the project: in ask mode it is approved as Write is.
  await expect(page.getByTestId('approval-allow')).toBeVisible()
  await page.getByTestId('approval-allow').click()
  await waitForTurnEnd(page)
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'Saved. Saved a skill draft at'
  )
  await expect(toolCards(page, 'SkillDraft')).toHaveCount(1)
  expect(
    readWorkspaceFile(app.workspace, '.mecatl/skill-drafts/greeting-style/SKILL.md')
  ).toContain('Keep it to one line.')

  await page.getByTestId('settings-button').click()
  const section = page.getByTestId('skills-section')
  const drafts = section.getByTestId('skill-draft')
  await expect(drafts).toHaveCount(2)
  const saved = drafts.filter({ hasText: 'greeting-style' })
  const clash = drafts.filter({ hasText: 'A better deploy' })
  await expect(saved.getByTestId('skill-draft-text')).toContainText('Say "Hello, <name>!"')
  await expect(clash.getByTestId('skill-draft-problem')).toContainText(
    'Cannot be activated: a project skill named "deploy" already exists'
  )
  await expect(clash.getByTestId('skill-draft-dropped')).toContainText('allowed-tools')
  await expect(clash.getByTestId('skill-draft-activate')).toBeDisabled()

  await saved.getByTestId('skill-draft-activate').click()
  await expect(section.getByTestId('skill-draft-note')).toContainText(
    '"greeting-style" is now a learned skill'
  )
  await expect(drafts).toHaveCount(1)
  const learned = section.getByTestId('skill-row').filter({ hasText: 'greeting-style' })
  await expect(learned).toContainText('learned')
  await expect(learned).toContainText(draft.description)
  await page.getByTestId('settings-close').click()

  await sendMessage(page, 'Greet Ada')
  await waitForTurnEnd(page)
  const chats = app.fakeModel.requests.filter((r) => r.normalized)
  const tools = (chats.at(-1)?.body as { tools: SentTool[] }).tools
  const skill = tools.find((t) => t.function.name === 'Skill')?.function.description ?? ''
  expect(skill).toContain(`- deploy: Ship a release\n- greeting-style: ${draft.description}`)
  const before = (chats[0]?.body as { tools: SentTool[] }).tools
  expect(before.find((t) => t.function.name === 'Skill')?.function.description).not.toContain(
    'greeting-style'
  )
  expect(app.fakeModel.exhaustedRequests()).toEqual([])
})
