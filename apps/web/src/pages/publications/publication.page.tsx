import { unwrap } from '@social/sdk';
import { useEffect, useState, type FormEvent } from 'react';
import { useQuery } from '../../api/use-query';
import { Link, matchPath, useLocation } from '../../router/router';
import { useApi } from '../../session/session';
import { ProblemMessage } from '../../ui/problem-message';
import { Loading } from '../../ui/states';
import { useWorkspace } from '../../workspace/workspace';
import { formatTime, publicationName, StatusBadge, type Publication, type Rendition } from './publishing';
import './publishing.css';

/** How often a publication is read again while a delivery is under way. */
const POLL_MS = 3000;
const IN_FLIGHT = ['queued', 'submitted', 'processing'];
const DELIVERY_LABELS: Record<string, string> = {
  queued: 'Waiting to be sent',
  submitted: 'Sent, waiting for the network',
  processing: 'The network is processing it',
  provider_scheduled: 'Scheduled on the network',
  live: 'Live',
  rejected: 'Rejected by the network',
  ambiguous: 'Unclear whether it went out (being checked)',
  manual_resolution: 'Needs someone to check on the network',
};

const inFlight = (publication: Publication) =>
  publication.status === 'publishing' || publication.renditions.some((rendition) => rendition.status === 'publishing');

/** One publication: its text, and each account's delivery, kept live while something is being sent; retry, cancel. */
export default function PublicationPage() {
  const api = useApi();
  const { canEdit } = useWorkspace();
  const id = matchPath('/publications/:id', useLocation().path)?.id ?? '';
  const publication = useQuery(id, (signal) => unwrap(api.GET('/publications/{id}', { params: { path: { id } }, signal })));
  const [actionError, setActionError] = useState<unknown>();
  const [busy, setBusy] = useState<string | null>(null);
  const current = publication.data;

  const live = current !== undefined && inFlight(current);
  const { reload } = publication;
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(reload, POLL_MS);
    return () => clearInterval(timer);
  }, [live, reload]);

  async function transition(name: 'cancel' | 'retry' | 'publish-now') {
    if (!current) return;
    setBusy(name);
    setActionError(undefined);
    try {
      const options = { params: { path: { id: current.id } }, body: { expected_revision: current.revision } };
      const next = await unwrap(
        name === 'cancel'
          ? api.POST('/publications/{id}/cancel', options)
          : name === 'retry'
            ? api.POST('/publications/{id}/retry', options)
            : api.POST('/publications/{id}/publish-now', options),
      );
      publication.setData(next);
    } catch (error) {
      setActionError(error);
      publication.reload();
    } finally {
      setBusy(null);
    }
  }

  if (!current) {
    return (
      <section className="page" aria-labelledby="page-title">
        <h1 id="page-title">Publication</h1>
        <ProblemMessage error={publication.error} title="This publication could not be loaded." />
        {publication.loading && <Loading />}
      </section>
    );
  }
  const editable = ['draft', 'ready', 'scheduled'].includes(current.status);
  const retryable = current.status === 'failed' || current.renditions.some((rendition) => rendition.status === 'failed');
  return (
    <section className="page" aria-labelledby="page-title">
      <p>
        <Link href="/publications">← Publications</Link>
      </p>
      <h1 id="page-title">{publicationName(current)}</h1>
      <p>
        <StatusBadge status={current.status} />{' '}
        <span className="muted">
          {current.actual_run_at ? `Went out ${formatTime(current.actual_run_at)}` : formatTime(current.scheduled_at)}
        </span>
      </p>
      <p role="status" className="muted">
        {live ? 'Sending… this page updates by itself.' : ''}
      </p>
      <ProblemMessage error={actionError} title="That did not work." />
      <ProblemMessage error={publication.error} title="The latest state could not be loaded." />
      {canEdit && (
        <div className="actions">
          {editable && (
            <Link className="button" href={`/compose?id=${current.id}`}>
              Edit
            </Link>
          )}
          {current.status === 'scheduled' && (
            <>
              <button type="button" className="primary" disabled={busy !== null} onClick={() => void transition('publish-now')}>
                {busy === 'publish-now' ? 'Publishing…' : 'Publish now'}
              </button>
              <button type="button" className="danger" disabled={busy !== null} onClick={() => void transition('cancel')}>
                {busy === 'cancel' ? 'Cancelling…' : 'Cancel schedule'}
              </button>
            </>
          )}
          {retryable && (
            <button type="button" disabled={busy !== null} onClick={() => void transition('retry')}>
              {busy === 'retry' ? 'Retrying…' : 'Retry the failed accounts'}
            </button>
          )}
        </div>
      )}
      <h2>Text</h2>
      {current.segments.length > 0 ? (
        <ol className="segments">
          {current.segments.map((segment) => (
            <li key={segment.id} className="preview-text">
              {segment.body}
            </li>
          ))}
        </ol>
      ) : (
        <p className="preview-text">{current.source_text || <span className="muted">(no text)</span>}</p>
      )}
      {current.media.length > 0 && (
        <ul>
          {current.media.map((item) => (
            <li key={item.id}>
              {item.original_filename}
              {item.alt_text ? `: “${item.alt_text}”` : ' (no alt text)'}
            </li>
          ))}
        </ul>
      )}
      <h2>Accounts</h2>
      {current.renditions.length === 0 && <p className="muted">Not scheduled to any account yet.</p>}
      <ul className="renditions">
        {current.renditions.map((rendition) => (
          <RenditionItem
            key={rendition.id}
            publication={current}
            rendition={rendition}
            canOverride={canEdit && current.status === 'scheduled'}
            onChange={publication.setData}
          />
        ))}
      </ul>
    </section>
  );
}

function RenditionItem({
  publication,
  rendition,
  canOverride,
  onChange,
}: {
  publication: Publication;
  rendition: Rendition;
  canOverride: boolean;
  onChange(publication: Publication): void;
}) {
  const delivery = rendition.delivery;
  const error = rendition.error_message || delivery.terminal_reason;
  return (
    <li className="rendition" aria-label={`Delivery to ${rendition.platform}`}>
      <p>
        <strong>{rendition.platform}</strong> <StatusBadge status={rendition.status} />{' '}
        <span className={`delivery delivery-${delivery.state}`}>{DELIVERY_LABELS[delivery.state] ?? delivery.state}</span>
        {IN_FLIGHT.includes(delivery.state) && <span className="spinner" aria-hidden="true" />}
      </p>
      {(rendition.external_url || delivery.external_url) && (
        <p>
          <a href={rendition.external_url || delivery.external_url} target="_blank" rel="noreferrer">
            See it on {rendition.platform}
          </a>
        </p>
      )}
      {error && <p className="field-error">{error}</p>}
      {canOverride && <RenditionOverride publication={publication} rendition={rendition} onChange={onChange} />}
    </li>
  );
}

/** This account's own text for each part; an empty box keeps the post's text. */
function RenditionOverride({
  publication,
  rendition,
  onChange,
}: {
  publication: Publication;
  rendition: Rendition;
  onChange(publication: Publication): void;
}) {
  const api = useApi();
  const parts = rendition.segments.filter((segment) => segment.publication_segment_id !== '');
  const [texts, setTexts] = useState(() => parts.map((segment) => segment.body_override));
  const [error, setError] = useState<unknown>();
  const [pending, setPending] = useState(false);
  if (parts.length === 0) return null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(undefined);
    try {
      onChange(
        await unwrap(
          api.PATCH('/publications/{id}/renditions/{rendition_id}', {
            params: { path: { id: publication.id, rendition_id: rendition.id } },
            body: {
              expected_revision: publication.revision,
              segments: parts.map((segment, index) => ({
                publication_segment_id: segment.publication_segment_id,
                body_override: texts[index],
              })),
            },
          }),
        ),
      );
    } catch (caught) {
      setError(caught);
    } finally {
      setPending(false);
    }
  };
  return (
    <details className="override">
      <summary>Text for this account only</summary>
      <form className="stack" onSubmit={submit}>
        {parts.map((segment, index) => (
          <div className="field" key={segment.id}>
            <label htmlFor={`override-${segment.id}`}>
              Part {index + 1} for {rendition.platform} (empty: the post&apos;s own text)
            </label>
            <textarea
              id={`override-${segment.id}`}
              rows={3}
              value={texts[index]}
              onChange={(event) => setTexts(texts.map((text, i) => (i === index ? event.target.value : text)))}
            />
          </div>
        ))}
        <ProblemMessage error={error} title="The account's text was not saved." />
        <button type="submit" disabled={pending}>
          {pending ? 'Saving…' : 'Save for this account'}
        </button>
      </form>
    </details>
  );
}
