import { useState, type JSX } from 'react'
import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { Field } from '../../ui/field'
import { KeyEntry } from '../../ui/key-entry'
import { secretName } from './search-model'

/** Desktop only: keeps a backend's key in the OS keychain; the settings keep only its name. */
export function StoreKey(props: {
  kind: string
  index: number
  stored: string
  onStored: (name: string) => void
}): JSX.Element {
  const [value, setValue] = useState('')
  const [error, setError] = useState<string | null>(null)
  const store = async (): Promise<void> => {
    const name = secretName(props.kind, props.index)
    try {
      const { stored } = await call('secrets.store', { name, value: value.trim() })
      if (!stored) throw new Error('The key could not be stored on this machine.')
      setValue('')
      setError(null)
      props.onStored(name)
    } catch (failure) {
      setError(errorMessage(failure))
    }
  }
  return (
    <Field label="Or store the key securely" optional error={error}>
      {(control) => (
        <KeyEntry
          control={control}
          value={value}
          placeholder={props.stored ? `Stored as ${props.stored}` : 'Paste the key'}
          onChange={setValue}
          onStore={() => void store()}
        />
      )}
    </Field>
  )
}
