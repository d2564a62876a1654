import { unwrap } from '@social/sdk';
import { useState, type DragEvent } from 'react';
import { useQuery } from '../../api/use-query';
import { useApi } from '../../session/session';
import { ProblemMessage } from '../../ui/problem-message';
import { Loading } from '../../ui/states';
import { useWorkspace } from '../../workspace/workspace';
import { uploadToLibrary } from '../../api/signed-upload';

/** A media item of the post: the library item, what the author says it shows, and a name to recognise it by. */
export interface Attachment {
  media_id: string;
  alt_text: string;
  name: string;
}

interface Upload {
  name: string;
  progress: number;
  error?: unknown;
}

/** The post's media: dropped or picked files are uploaded to the library (with progress), or items are picked from it. */
export function MediaPicker({ media, onChange }: { media: Attachment[]; onChange(media: Attachment[]): void }) {
  const api = useApi();
  const { workspace } = useWorkspace();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [browsing, setBrowsing] = useState(false);
  const [over, setOver] = useState(false);
  const library = useQuery(browsing ? workspace.id : null, (signal) =>
    unwrap(api.GET('/media', { params: { query: { workspace_id: workspace.id, limit: 50 } }, signal })),
  );
  // Uploads finish one by one; each adds to the list as it then is.
  let current = media;
  const add = (item: Attachment) => {
    current = [...current, item];
    onChange(current);
  };

  async function upload(files: FileList | File[]) {
    for (const file of Array.from(files)) {
      const track = (change: Partial<Upload>) =>
        setUploads((list) => list.map((entry) => (entry.name === file.name ? { ...entry, ...change } : entry)));
      setUploads((list) => [...list.filter((entry) => entry.name !== file.name), { name: file.name, progress: 0 }]);
      try {
        const item = await uploadToLibrary(api, workspace.id, file, (progress) => track({ progress }));
        add({ media_id: item.id, alt_text: '', name: file.name });
        setUploads((list) => list.filter((entry) => entry.name !== file.name));
      } catch (error) {
        track({ error });
      }
    }
  }

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (event.dataTransfer.files.length > 0) void upload(event.dataTransfer.files);
  };

  return (
    <fieldset className="media-picker">
      <legend>Media</legend>
      <div
        className={`drop-zone${over ? ' drop-target' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
      >
        <p>Drop images or videos here, or</p>
        <label className="button">
          choose files
          <input
            type="file"
            className="visually-hidden"
            accept="image/*,video/*"
            multiple
            onChange={(event) => event.target.files && void upload(event.target.files)}
          />
        </label>{' '}
        <button type="button" onClick={() => setBrowsing(!browsing)} aria-expanded={browsing}>
          {browsing ? 'Close the library' : 'Pick from the library'}
        </button>
      </div>
      {uploads.map((entry) => (
        <div key={entry.name} className="upload">
          <label>
            Uploading {entry.name}
            <progress max={1} value={entry.progress} />
          </label>
          <ProblemMessage error={entry.error} title={`${entry.name} could not be uploaded.`} />
        </div>
      ))}
      {browsing && (
        <div className="library">
          <ProblemMessage error={library.error} title="The library could not be loaded." />
          {library.loading && <Loading />}
          {library.data?.items.length === 0 && <p>The library is empty.</p>}
          <ul className="library-items">
            {library.data?.items.map((item) => {
              const attached = media.some((entry) => entry.media_id === item.id);
              return (
                <li key={item.id}>
                  <span>{item.filename}</span>
                  <button
                    type="button"
                    disabled={attached}
                    onClick={() => add({ media_id: item.id, alt_text: '', name: item.filename })}
                    aria-label={`Add ${item.filename}`}
                  >
                    {attached ? 'Added' : 'Add'}
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      )}
      {media.length > 0 && (
        <ol className="attachments">
          {media.map((item, index) => (
            <li key={item.media_id}>
              <span className="attachment-name">{item.name}</span>
              <label>
                Alt text for {item.name}
                <input
                  value={item.alt_text}
                  maxLength={1500}
                  onChange={(e) => onChange(media.map((m, i) => (i === index ? { ...m, alt_text: e.target.value } : m)))}
                />
              </label>
              <button type="button" onClick={() => onChange(media.filter((_, i) => i !== index))} aria-label={`Remove ${item.name}`}>
                Remove
              </button>
            </li>
          ))}
        </ol>
      )}
    </fieldset>
  );
}
