import { unwrap, type Schema } from '@social/sdk';
import { useState, type FormEvent } from 'react';
import { useQuery } from '../../api/use-query';
import { Link, navigate, useLocation } from '../../router/router';
import { useApi } from '../../session/session';
import { Field } from '../../ui/field';
import { ProblemMessage } from '../../ui/problem-message';
import { EmptyState, Loading } from '../../ui/states';
import { useWorkspace } from '../../workspace/workspace';
import { accountsOf, fromLocalInput, toLocalInput, type Publication, type SocialAccount } from '../publications/publishing';
import { Angles } from './angles';
import { MediaPicker, type Attachment } from './media-picker';
import { PreviewPanel } from './preview-panel';
import '../publications/publishing.css';

type ContentProfile = Schema<'CreatePublicationRequest'>['content_profile'];
type Preview = Schema<'PublicationPreview'>;

const PROFILES: Array<[ContentProfile, string]> = [
  ['short_text', 'Short text'],
  ['thread', 'Thread (several posts)'],
  ['image_post', 'Image post'],
  ['carousel', 'Carousel'],
  ['link_share', 'Link share'],
  ['story', 'Story'],
  ['short_video', 'Short video'],
  ['long_video', 'Long video'],
];
/** Profiles whose posts the author writes one by one (segments). */
const SEGMENTED: ContentProfile[] = ['thread', 'carousel'];

interface Draft {
  profile: ContentProfile;
  title: string;
  text: string;
  parts: string[];
  media: Attachment[];
}

const EMPTY: Draft = { profile: 'short_text', title: '', text: '', parts: [], media: [] };

function draftOf(publication: Publication): Draft {
  return {
    profile: publication.content_profile,
    title: publication.title,
    text: publication.source_text,
    parts: SEGMENTED.includes(publication.content_profile) ? publication.segments.map((segment) => segment.body) : [],
    media: publication.media.map((item) => ({ media_id: item.id, alt_text: item.alt_text, name: item.original_filename })),
  };
}

/** Write a post (or open a draft with `?id=`), add media, preview it per account, then save, schedule or publish it. */
export default function ComposePage() {
  const { workspace, canEdit } = useWorkspace();
  const { query } = useLocation();
  const api = useApi();
  const id = query.get('id');
  const existing = useQuery(id ? `${workspace.id}:${id}` : null, (signal) =>
    unwrap(api.GET('/publications/{id}', { params: { path: { id: id! } }, signal })),
  );
  const accounts = useQuery(workspace.id, (signal) => accountsOf(api, workspace.id, signal));

  if (!canEdit) {
    return (
      <section className="page" aria-labelledby="page-title">
        <h1 id="page-title">Compose</h1>
        <EmptyState title="Viewers read this workspace's posts but cannot write them.">
          <p>
            See them on the <Link href="/calendar">calendar</Link> or in <Link href="/publications">publications</Link>.
          </p>
        </EmptyState>
      </section>
    );
  }
  const loading = (id && existing.loading && !existing.data) || (accounts.loading && !accounts.data);
  return (
    <section className="page compose-page" aria-labelledby="page-title">
      <h1 id="page-title">{id ? 'Edit post' : 'Compose'}</h1>
      <ProblemMessage error={existing.error} title="This post could not be opened." />
      <ProblemMessage error={accounts.error} title="Your accounts could not be loaded." />
      {loading ? <Loading /> : <Composer key={existing.data?.id ?? 'new'} initial={existing.data} accounts={accounts.data ?? []} />}
    </section>
  );
}

function Composer({ initial, accounts }: { initial?: Publication; accounts: SocialAccount[] }) {
  const api = useApi();
  const { workspace } = useWorkspace();
  const [draft, setDraft] = useState<Draft>(() => (initial ? draftOf(initial) : EMPTY));
  const [saved, setSaved] = useState<Publication | undefined>(initial);
  const active = accounts.filter((account) => account.status === 'active');
  const [targets, setTargets] = useState<string[]>(() => initial?.renditions.map((r) => r.social_account_id) ?? active.map((a) => a.id));
  const [when, setWhen] = useState(() =>
    toLocalInput(initial?.scheduled_at ? new Date(initial.scheduled_at) : new Date(Date.now() + 3_600_000)),
  );
  const [preview, setPreview] = useState<Preview | undefined>();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState('');
  const update = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  const segmented = SEGMENTED.includes(draft.profile);
  // A scheduled publication goes out with its own renditions: its targets are changed on its page, not here.
  const targetsFixed = saved?.status === 'scheduled';

  /** Creates the publication the first time, then writes every member of the draft onto it. */
  async function save(): Promise<Publication> {
    const created =
      saved ??
      (await unwrap(
        api.POST('/publications', {
          body: { workspace_id: workspace.id, content_profile: draft.profile, title: draft.title, source_text: draft.text },
        }),
      ));
    // A single post is stored as one segment too, so each account's version of it can be overridden once scheduled.
    const parts = segmented ? draft.parts.filter((part) => part.trim() !== '') : draft.text.trim() ? [draft.text] : [];
    const updated = await unwrap(
      api.PATCH('/publications/{id}', {
        params: { path: { id: created.id } },
        body: {
          expected_revision: created.revision,
          content_profile: draft.profile,
          title: draft.title,
          source_text: draft.text,
          segments: parts.map((body) => ({
            title: segmented ? '' : draft.title,
            body,
            description: '',
            url: '',
            settings: {},
            media: [],
          })),
          media: draft.media.map((item) => ({ media_id: item.media_id, alt_text: item.alt_text, role: 'attachment' as const })),
        },
      }),
    );
    setSaved(updated);
    if (!saved) window.history.replaceState(null, '', `/compose?id=${updated.id}`);
    return updated;
  }

  async function act(name: string, action: () => Promise<void>) {
    setBusy(name);
    setError(undefined);
    setNotice('');
    try {
      await action();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
    }
  }

  const chosen = () => (targetsFixed ? {} : { account_ids: targets });
  const saveDraft = () => act('save', async () => void (await save(), setNotice('Draft saved.')));
  const runPreview = () =>
    act('preview', async () => {
      const publication = await save();
      setPreview(await unwrap(api.POST('/publications/{id}/preview', { params: { path: { id: publication.id } }, body: chosen() })));
    });
  const schedule = (event: FormEvent) => {
    event.preventDefault();
    const at = fromLocalInput(when);
    if (!at) return setError(new Error('Choose a date and time to schedule the post.'));
    void act('schedule', async () => {
      const publication = await save();
      const scheduled = await unwrap(
        api.POST('/publications/{id}/schedule', {
          params: { path: { id: publication.id } },
          body: { expected_revision: publication.revision, scheduled_at: at.toISOString(), ...chosen() },
        }),
      );
      navigate(`/publications/${scheduled.id}`);
    });
  };
  const publishNow = () =>
    act('publish', async () => {
      const publication = await save();
      const sent = await unwrap(
        api.POST('/publications/{id}/publish-now', {
          params: { path: { id: publication.id } },
          body: { expected_revision: publication.revision, ...chosen() },
        }),
      );
      navigate(`/publications/${sent.id}`);
    });

  return (
    <div className="compose-layout">
      <form className="stack compose-form" onSubmit={schedule} aria-label="Post">
        <div className="field">
          <label htmlFor="compose-profile">Kind of post</label>
          <select id="compose-profile" value={draft.profile} onChange={(e) => update({ profile: e.target.value as ContentProfile })}>
            {PROFILES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <Field
          label="Title (optional)"
          name="title"
          value={draft.title}
          error={error}
          onChange={(e) => update({ title: e.target.value })}
        />
        <div className="field">
          <label htmlFor="compose-text">{segmented ? 'Idea (what the posts are about)' : 'Text'}</label>
          <textarea id="compose-text" rows={6} value={draft.text} onChange={(e) => update({ text: e.target.value })} />
          {draft.profile === 'thread' && <p className="hint">Without posts below, each paragraph becomes a post of the thread.</p>}
        </div>
        {segmented && <Parts parts={draft.parts} onChange={(parts) => update({ parts })} />}
        <Angles idea={draft.text} targets={targets} onUse={(text) => update({ text })} />
        <MediaPicker media={draft.media} onChange={(media) => update({ media })} />

        <fieldset className="targets">
          <legend>Accounts</legend>
          {active.length === 0 && (
            <p>
              No account is connected yet: <Link href="/accounts">connect one</Link>.
            </p>
          )}
          {targetsFixed && <p className="hint">A scheduled post keeps its accounts; cancel it to choose others.</p>}
          {active.map((account) => (
            <label key={account.id} className="check">
              <input
                type="checkbox"
                disabled={targetsFixed}
                checked={targets.includes(account.id)}
                onChange={(e) => setTargets(e.target.checked ? [...targets, account.id] : targets.filter((id) => id !== account.id))}
              />
              {account.display_name || account.username} <span className="muted">({account.platform})</span>
            </label>
          ))}
        </fieldset>

        <ProblemMessage error={error} title="That did not work." />
        {notice && (
          <p role="status" className="notice">
            {notice}
          </p>
        )}
        <div className="actions">
          <button type="button" onClick={saveDraft} disabled={busy !== null}>
            {busy === 'save' ? 'Saving…' : 'Save draft'}
          </button>
          <button type="button" onClick={runPreview} disabled={busy !== null}>
            {busy === 'preview' ? 'Previewing…' : 'Preview'}
          </button>
        </div>
        <div className="schedule-row">
          <div className="field">
            <label htmlFor="compose-when">Publish at</label>
            <input id="compose-when" type="datetime-local" value={when} onChange={(e) => setWhen(e.target.value)} required />
          </div>
          <button type="submit" className="primary" disabled={busy !== null}>
            {busy === 'schedule' ? 'Scheduling…' : 'Schedule'}
          </button>
          <button type="button" onClick={publishNow} disabled={busy !== null}>
            {busy === 'publish' ? 'Publishing…' : 'Publish now'}
          </button>
        </div>
      </form>
      <PreviewPanel preview={preview} accounts={accounts} />
    </div>
  );
}

/** A thread's or carousel's posts, one text each. */
function Parts({ parts, onChange }: { parts: string[]; onChange(parts: string[]): void }) {
  return (
    <fieldset className="parts">
      <legend>Posts</legend>
      {parts.map((part, index) => (
        <div className="part" key={index}>
          <label htmlFor={`part-${index}`}>Post {index + 1}</label>
          <textarea
            id={`part-${index}`}
            rows={3}
            value={part}
            onChange={(e) => onChange(parts.map((p, i) => (i === index ? e.target.value : p)))}
          />
          <button type="button" onClick={() => onChange(parts.filter((_, i) => i !== index))} aria-label={`Remove post ${index + 1}`}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...parts, ''])}>
        Add a post
      </button>
    </fieldset>
  );
}
