import type { Schema } from '@social/sdk';
import { fieldName } from '../../ui/problem-message';
import type { SocialAccount } from '../publications/publishing';

/** What each account's network would receive, part by part, with the network's objections beside it. */
export function PreviewPanel({ preview, accounts }: { preview?: Schema<'PublicationPreview'>; accounts: SocialAccount[] }) {
  const name = (id: string) => {
    const account = accounts.find((item) => item.id === id);
    return account ? `${account.display_name || account.username} (${account.platform})` : id;
  };
  return (
    <section className="preview-panel" aria-labelledby="preview-title" aria-live="polite">
      <h2 id="preview-title">Preview</h2>
      {!preview && <p className="muted">Preview shows the post as each account's network will receive it.</p>}
      {preview?.renditions.map((rendition) => (
        <article
          key={rendition.social_account_id}
          className="preview-account"
          aria-label={`Preview for ${name(rendition.social_account_id)}`}
        >
          <h3>{name(rendition.social_account_id)}</h3>
          {rendition.problems.length > 0 ? (
            <ul className="preview-problems" role="alert">
              {rendition.problems.map((problem) => (
                <li key={problem.location + problem.message}>
                  {fieldName(problem.location.split('.').slice(2).join('.')) || 'Post'}: {problem.message}
                </li>
              ))}
            </ul>
          ) : (
            <p className="ok">Ready to send.</p>
          )}
          <ol className="preview-parts">
            {rendition.parts.map((part, index) => (
              <li key={index}>
                <p className="preview-text">{part.text || <span className="muted">(no text)</span>}</p>
                {part.media.map((item) => (
                  <p key={item.media_id} className="muted">
                    {item.mime_type} {item.width}×{item.height}
                    {item.alt_text && `, alt text: “${item.alt_text}”`}
                  </p>
                ))}
              </li>
            ))}
          </ol>
        </article>
      ))}
    </section>
  );
}
