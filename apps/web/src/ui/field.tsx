import { useId, type InputHTMLAttributes } from 'react';
import { fieldError } from './problem-message';

/** A labelled input whose API field error (from `error`, a PlatformProblem) is shown and announced beside it. */
export function Field({
  label,
  name,
  error,
  hint,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  name: string;
  error?: unknown;
  hint?: string;
}) {
  const id = useId();
  const message = fieldError(error, name);
  const described = [hint && `${id}-hint`, message && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} aria-invalid={message ? true : undefined} aria-describedby={described} {...input} />
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {message && (
        <p className="field-error" id={`${id}-error`}>
          {message}
        </p>
      )}
    </div>
  );
}
