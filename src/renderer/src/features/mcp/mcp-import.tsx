import type { JSX } from 'react'
import type { Importer } from './mcp-reducer'
import { importServers } from './mcp-draft'
import { useMcp } from './mcp-store'
import { Field } from '../../ui/field'
import { TextField } from '../../ui/text-field'

/** Reads servers from Claude Desktop's config or a project's `.mcp.json`, by path or pasted. */
export function McpImport({ importer }: { importer: Importer }): JSX.Element {
  const dispatch = useMcp((s) => s.dispatch)
  const ready = importer.path.trim() !== '' || importer.text.trim() !== ''
  return (
    <div className="provider-form mcp-import" data-testid="mcp-import">
      <h3 className="provider-form__title">Import servers</h3>
      <TextField
        label="Config file"
        mono
        testId="mcp-import-path"
        value={importer.path}
        placeholder="~/.config/Claude/claude_desktop_config.json or ./.mcp.json"
        onChange={(value) => dispatch({ type: 'import-field', field: 'path', value })}
        spellCheck={false}
      />
      <Field
        label="Or paste it"
        optional="the JSON with “mcpServers”"
        hint="Only servers started with a command are imported. Variables that look like keys are passed through from your environment instead of being written into settings."
      >
        {(control) => (
          <textarea
            {...control}
            className="textarea input--mono"
            data-testid="mcp-import-text"
            rows={4}
            value={importer.text}
            placeholder={'{ "mcpServers": { "name": { "command": "npx", "args": ["…"] } } }'}
            onChange={(e) =>
              dispatch({ type: 'import-field', field: 'text', value: e.target.value })
            }
            spellCheck={false}
          />
        )}
      </Field>
      {importer.error && (
        <p className="field-error" role="alert" data-testid="mcp-import-error">
          {importer.error}
        </p>
      )}
      {importer.notes.length > 0 && (
        <ul className="issue-list mcp-import__notes" data-testid="mcp-import-notes">
          {importer.notes.map((note, i) => (
            <li key={i}>{note}</li>
          ))}
        </ul>
      )}
      <div className="provider-form__test">
        <button
          type="button"
          className="button button--primary"
          data-testid="mcp-import-run"
          disabled={!ready || importer.busy}
          onClick={() => void importServers()}
        >
          {importer.busy ? 'Importing…' : 'Import and start'}
        </button>
        <button
          type="button"
          className="button button--ghost"
          onClick={() => dispatch({ type: 'import-toggle', open: false })}
        >
          Close
        </button>
      </div>
    </div>
  )
}
