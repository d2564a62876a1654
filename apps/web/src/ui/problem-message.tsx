import { PlatformProblem, type ProblemFieldError } from '@social/sdk';

/**
 * What went wrong, in words: an API problem's `detail` and each invalid field, anything else as a sentence.
 * Renders nothing when there is no error, so pages can always place it above their form or list.
 */
export function ProblemMessage({ error, title }: { error: unknown; title?: string }) {
  if (error === undefined || error === null) return null;
  const { summary, fields, requestId } = describe(error);
  return (
    <div className="problem" role="alert">
      {title && <p className="problem-title">{title}</p>}
      <p>{summary}</p>
      {fields.length > 0 && (
        <ul>
          {fields.map((field) => (
            <li key={`${field.location}:${field.message}`}>
              <strong>{fieldName(field.location)}</strong>: {field.message}
            </li>
          ))}
        </ul>
      )}
      {requestId && <p className="problem-reference">Reference for support: {requestId}</p>}
    </div>
  );
}

function describe(error: unknown): { summary: string; fields: ProblemFieldError[]; requestId?: string } {
  if (error instanceof PlatformProblem) return { summary: error.detail, fields: error.errors, requestId: error.requestId || undefined };
  // fetch rejects with a TypeError when the server cannot be reached at all.
  if (error instanceof TypeError) return { summary: 'The server could not be reached. Check your connection and try again.', fields: [] };
  if (error instanceof Error && error.message) return { summary: error.message, fields: [] };
  return { summary: 'Something went wrong. Please try again.', fields: [] };
}

/** `body.accounts[0].social_account_id` → `accounts 1 social account id`: a field's location as a person reads it. */
export function fieldName(location: string): string {
  const name = location
    .replace(/^(body|query|path|header)\.?/, '')
    .replace(/\[(\d+)\]/g, (_, index: string) => ` ${Number(index) + 1}`)
    .replace(/[._]/g, ' ')
    .trim();
  return name ? name[0].toUpperCase() + name.slice(1) : 'Request';
}

/** The message for one form field (`password` matches `body.password`), to show beside its input. */
export function fieldError(error: unknown, field: string): string | undefined {
  if (!(error instanceof PlatformProblem)) return undefined;
  return error.errors.find((item) => item.location === `body.${field}`)?.message;
}
