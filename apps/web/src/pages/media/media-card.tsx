import { unwrap, type Schema } from '@social/sdk';
import { useAction } from '../../api/use-action';
import { useApi } from '../../session/session';
import { ConfirmButton } from '../../ui/confirm-button';
import { formatBytes, formatDateTime } from '../../ui/format';
import { ProblemMessage } from '../../ui/problem-message';
import { Thumbnail } from './thumbnail';
import type { MediaItem } from '../../api/signed-upload';

/** One library item: its picture and facts, its tags as checkboxes (editors), delete. */
export function MediaCard({
  item,
  tags,
  canEdit,
  onChanged,
  onDeleted,
}: {
  item: MediaItem;
  tags: Schema<'MediaTag'>[];
  canEdit: boolean;
  onChanged(item: MediaItem): void;
  onDeleted(): void;
}) {
  const api = useApi();
  const setTags = useAction(async (tagIds: string[]) => {
    onChanged(await unwrap(api.PUT('/media/{id}/tags', { params: { path: { id: item.id } }, body: { tag_ids: tagIds } })));
  });
  const remove = useAction(async () => {
    await unwrap(api.DELETE('/media/{id}', { params: { path: { id: item.id } } }));
    onDeleted();
  });
  const toggle = (tagId: string, on: boolean) => setTags.run(on ? [...item.tag_ids, tagId] : item.tag_ids.filter((id) => id !== tagId));
  const own = tags.filter((tag) => item.tag_ids.includes(tag.id));
  return (
    <li className="media-card">
      <Thumbnail item={item} />
      <h3>{item.filename}</h3>
      <p className="meta">
        {item.mime_type} · {formatBytes(item.size)}
        {item.width > 0 && ` · ${item.width}×${item.height}`}
        {item.duration_ms > 0 && ` · ${Math.round(item.duration_ms / 1000)} s`}
        <br />
        Added {formatDateTime(item.created_at)}
      </p>
      {canEdit && tags.length > 0 ? (
        <fieldset className="checks">
          <legend>Tags of {item.filename}</legend>
          {tags.map((tag) => (
            <label key={tag.id}>
              <input
                type="checkbox"
                checked={item.tag_ids.includes(tag.id)}
                disabled={setTags.pending}
                onChange={(event) => toggle(tag.id, event.target.checked)}
              />
              {tag.name}
            </label>
          ))}
        </fieldset>
      ) : (
        own.length > 0 && <p className="meta">Tags: {own.map((tag) => tag.name).join(', ')}</p>
      )}
      <ProblemMessage error={setTags.error} />
      <ProblemMessage error={remove.error} />
      {canEdit && (
        <div className="row-actions">
          <ConfirmButton confirmLabel={`Confirm: delete ${item.filename}`} onConfirm={() => remove.run()} disabled={remove.pending}>
            Delete
          </ConfirmButton>
        </div>
      )}
    </li>
  );
}
