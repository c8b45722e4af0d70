// `npm run docs:settings`: writes docs/settings-reference.md from the settings schema. The
// generator is TypeScript that imports src/shared, so Vite (the project's own build tool) loads
// it, as it does for the tests that check the page is current.
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { runnerImport } from 'vite'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const { module } = await runnerImport(path.join(root, 'scripts', 'settings-reference.ts'), {
  root,
  configFile: false,
  logLevel: 'warn'
})
const target = path.join(root, module.REFERENCE_PAGE)
await writeFile(target, await module.settingsReference(root))
console.log(`Wrote ${path.relative(root, target)} from src/shared/settings.ts.`)
