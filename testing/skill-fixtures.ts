import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'

/**
 * SKILL.md files in the published format (front matter with `name` and `description`, then the
 * instructions), as people keep them: extra fields, Windows line endings, no final newline.
 */
export const skillFixtures: Readonly<Record<string, string>> = {
  // The shape of Anthropic's public skills: license and allowed-tools beside name/description.
  '.claude/skills/pdf/SKILL.md': [
    '---',
    'name: pdf',
    'description: Extract text and tables from PDF files. Use when the person mentions PDFs.',
    'license: Proprietary. LICENSE.txt has complete terms',
    'allowed-tools:',
    '  - Read',
    '  - Shell',
    'metadata:',
    '  version: "1.2"',
    '---',
    '',
    '# PDF processing',
    '',
    'Read `reference.md` beside this file for the table extraction recipe.',
    ''
  ].join('\n'),
  '.claude/skills/pdf/reference.md': '# Tables\nUse pdfplumber.\n',
  // Saved on Windows: CRLF everywhere, and a quoted description with a colon in it.
  '.mecatl/skills/release-notes/SKILL.md': [
    '---',
    'name: release-notes',
    'description: "Write release notes: group changes by area"',
    '---',
    'Collect the merged changes since the last tag.',
    'Group them by area.',
    ''
  ].join('\r\n'),
  // No trailing newline at all, and a folded multi-line description.
  '.mecatl/skills/commit-style/SKILL.md':
    '---\nname: commit-style\ndescription: >\n  How this project writes commit\n  messages.\n---\nImperative mood, 72 columns.',
  // Malformed: YAML that does not parse.
  '.mecatl/skills/broken-yaml/SKILL.md': '---\nname: broken\ndescription: [unclosed\n---\nBody\n',
  // Malformed: front matter never closed.
  '.mecatl/skills/unclosed/SKILL.md': '---\nname: unclosed\ndescription: never ends\nBody\n',
  // Malformed: no description.
  '.mecatl/skills/no-description/SKILL.md': '---\nname: no-description\n---\nBody\n',
  // Not a skill: a folder without SKILL.md is ignored.
  '.mecatl/skills/notes/README.md': 'just notes\n'
}

/** Command files in the `.claude/commands` format: the body is the prompt, `$ARGUMENTS` filled. */
export const commandFixtures: Readonly<Record<string, string>> = {
  '.claude/commands/review.md':
    'Review the changes in $ARGUMENTS for bugs and unclear names.\nList findings by severity.\n',
  '.mecatl/commands/fix-issue.md':
    '---\ndescription: Fix a numbered issue\nargument-hint: [issue-number]\n---\nFind and fix issue #$ARGUMENTS. Run the tests.\r\n',
  '.mecatl/commands/summarize.md': '# Summarize the project\n\nWrite a one-paragraph summary.',
  // Collides with the built-in /help: the built-in wins and the clash is reported.
  '.mecatl/commands/help.md': 'Never used\n',
  // Collides with the skill `pdf`: the command file wins.
  '.claude/commands/pdf.md': 'Convert $ARGUMENTS to PDF\n'
}

export async function writeFiles(
  root: string,
  files: Readonly<Record<string, string>>
): Promise<void> {
  for (const [relative, text] of Object.entries(files)) {
    const file = path.join(root, relative)
    await mkdir(path.dirname(file), { recursive: true })
    await writeFile(file, text)
  }
}
