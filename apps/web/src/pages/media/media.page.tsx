import { unwrap, type Schema } from '@social/sdk';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useAction } from '../../api/use-action';
import { useQuery } from '../../api/use-query';
import { useApi } from '../../session/session';
import '../../styles/manage.css';
import { Field } from '../../ui/field';
import { formatBytes } from '../../ui/format';
import { ProblemMessage } from '../../ui/problem-message';
import { EmptyState, Loading } from '../../ui/states';
import { useWorkspace } from '../../workspace/workspace';
import { MediaCard } from './media-card';
import { uploadToLibrary, type MediaItem } from '../../api/signed-upload';

type MediaTag = Schema<'MediaTag'>;

interface Upload {
  key: string;
  name: string;
  progress: number;
  error?: unknown;
}

/** The workspace's library: upload with progress, filter by tag, tag and delete items; viewers only look. */
export default function MediaPage() {
  const api = useApi();
  const { workspace, canEdit } = useWorkspace();
  const [tagFilter, setTagFilter] = useState('');
  const [extra, setExtra] = useState<{ items: MediaItem[]; cursor: string }>({ items: [], cursor: '' });
  const [uploads, setUploads] = useState<Upload[]>([]);
  const tags = useQuery(workspace.id, () => unwrap(api.GET('/media/tags', { params: { query: { workspace_id: workspace.id } } })));
  const media = useQuery(`${workspace.id}:${tagFilter}`, async (signal) => {
    const page = await unwrap(
      api.GET('/media', { params: { query: { workspace_id: workspace.id, ...(tagFilter ? { tag_id: tagFilter } : {}) } }, signal }),
    );
    setExtra({ items: [], cursor: page.next_cursor });
    return page;
  });
  const items = [...(media.data?.items ?? []), ...extra.items];

  const more = useAction(async () => {
    const page = await unwrap(
      api.GET('/media', {
        params: { query: { workspace_id: workspace.id, cursor: extra.cursor, ...(tagFilter ? { tag_id: tagFilter } : {}) } },
      }),
    );
    setExtra((previous) => ({ items: [...previous.items, ...page.items], cursor: page.next_cursor }));
  });

  const track = (key: string, change: Partial<Upload>) =>
    setUploads((list) => list.map((upload) => (upload.key === key ? { ...upload, ...change } : upload)));
  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    const started = files.map((file) => ({ file, key: `${Date.now()}-${Math.random()}`, name: file.name, progress: 0 }));
    setUploads((list) => [...started.map(({ file: _file, ...rest }) => rest), ...list]);
    await Promise.all(
      started.map(async ({ file, key }) => {
        try {
          await uploadToLibrary(api, workspace.id, file, (progress) => track(key, { progress }));
          setUploads((list) => list.filter((item) => item.key !== key));
        } catch (error) {
          track(key, { error });
        }
      }),
    );
    media.reload();
    tags.reload();
  };

  const replaceItem = (item: MediaItem) => {
    if (media.data) media.setData({ ...media.data, items: media.data.items.map((old) => (old.id === item.id ? item : old)) });
    setExtra((previous) => ({ ...previous, items: previous.items.map((old) => (old.id === item.id ? item : old)) }));
    tags.reload();
  };
  const removeItem = (id: string) => {
    if (media.data) media.setData({ ...media.data, items: media.data.items.filter((old) => old.id !== id) });
    setExtra((previous) => ({ ...previous, items: previous.items.filter((old) => old.id !== id) }));
    tags.reload();
  };

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Media</h1>
      {canEdit && (
        <div className="panel">
          <label className="field" htmlFor="media-upload">
            <strong>Upload files</strong>
          </label>
          <input id="media-upload" type="file" multiple accept="image/*,video/*" onChange={upload} />
          <p className="hint">Images up to 50 MB, videos up to 4 GB.</p>
          {uploads.length > 0 && (
            <ul className="uploads" aria-label="Uploads">
              {uploads.map((item) => (
                <li key={item.key}>
                  <label>
                    {item.name}
                    <progress max={1} value={item.progress} />
                  </label>
                  <ProblemMessage error={item.error} title={`${item.name} was not uploaded`} />
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <TagsPanel tags={tags.data?.tags ?? []} canEdit={canEdit} onChanged={tags.reload} error={tags.error} />
      <div className="toolbar">
        <div className="field">
          <label htmlFor="media-filter">Show</label>
          <select id="media-filter" value={tagFilter} onChange={(event) => setTagFilter(event.target.value)}>
            <option value="">Every item</option>
            {(tags.data?.tags ?? []).map((tag) => (
              <option key={tag.id} value={tag.id}>
                Tagged {tag.name} ({tag.item_count})
              </option>
            ))}
          </select>
        </div>
      </div>
      <ProblemMessage error={media.error} />
      {media.loading && !media.data && <Loading />}
      {media.data && items.length === 0 && (
        <EmptyState title={tagFilter ? 'No item carries this tag' : 'The library is empty'}>
          {canEdit && !tagFilter && <p>Upload images or videos to use them in posts.</p>}
        </EmptyState>
      )}
      <ul className="media-grid" aria-label="Library">
        {items.map((item) => (
          <MediaCard
            key={item.id}
            item={item}
            tags={tags.data?.tags ?? []}
            canEdit={canEdit}
            onChanged={replaceItem}
            onDeleted={() => removeItem(item.id)}
          />
        ))}
      </ul>
      <ProblemMessage error={more.error} />
      {extra.cursor && (
        <p>
          <button type="button" onClick={() => more.run()} disabled={more.pending}>
            {more.pending ? 'Loading…' : 'Show more'}
          </button>
        </p>
      )}
      {items.length > 0 && (
        <p className="meta">
          {items.length} items, {formatBytes(items.reduce((sum, item) => sum + item.size, 0))} shown
        </p>
      )}
    </section>
  );
}

/** The workspace's tags: create and delete (editors). */
function TagsPanel({ tags, canEdit, onChanged, error }: { tags: MediaTag[]; canEdit: boolean; onChanged(): void; error: unknown }) {
  const api = useApi();
  const { workspace } = useWorkspace();
  const [name, setName] = useState('');
  const create = useAction(async () => {
    await unwrap(api.POST('/media/tags', { body: { workspace_id: workspace.id, name: name.trim() } }));
    setName('');
    onChanged();
  });
  const remove = useAction(async (id: string) => {
    await unwrap(api.DELETE('/media/tags/{id}', { params: { path: { id } } }));
    onChanged();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run();
  };
  return (
    <div className="panel">
      <h2>Tags</h2>
      <ProblemMessage error={error} />
      <ProblemMessage error={remove.error} />
      {tags.length === 0 ? (
        <p className="meta">No tags yet.</p>
      ) : (
        <ul className="row-actions" aria-label="Tags">
          {tags.map((tag) => (
            <li key={tag.id} className="badge">
              {tag.name} ({tag.item_count})
              {canEdit && (
                <button type="button" className="ghost" aria-label={`Delete the tag ${tag.name}`} onClick={() => remove.run(tag.id)}>
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canEdit && (
        <form className="toolbar" onSubmit={submit}>
          <ProblemMessage error={create.error} />
          <Field
            label="New tag"
            name="name"
            value={name}
            maxLength={64}
            required
            error={create.error}
            onChange={(e) => setName(e.target.value)}
          />
          <button type="submit" disabled={create.pending}>
            Add tag
          </button>
        </form>
      )}
    </div>
  );
}
