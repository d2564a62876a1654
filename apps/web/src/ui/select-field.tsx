import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import { fieldError } from './problem-message';

/** A labelled select whose API field error is shown and announced beside it, as `Field` does for inputs. */
export function SelectField({
  label,
  name,
  error,
  children,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; name: string; error?: unknown; children: ReactNode }) {
  const id = useId();
  const message = fieldError(error, name);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? `${id}-error` : undefined}
        {...select}
      >
        {children}
      </select>
      {message && (
        <p className="field-error" id={`${id}-error`}>
          {message}
        </p>
      )}
    </div>
  );
}
