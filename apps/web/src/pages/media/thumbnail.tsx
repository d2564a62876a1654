import { useEffect, useState } from 'react';
import { useApi } from '../../session/session';
import type { MediaItem } from '../../api/signed-upload';

/**
 * An image item's picture. Its bytes need the bearer token, which an <img src> cannot send: they are fetched
 * through the SDK and shown from a blob URL, released when the card goes. Other kinds show their type.
 */
export function Thumbnail({ item }: { item: MediaItem }) {
  const api = useApi();
  const [url, setUrl] = useState<string>();
  const isImage = item.mime_type.startsWith('image/');
  useEffect(() => {
    if (!isImage) return;
    let objectUrl: string | undefined;
    const controller = new AbortController();
    api
      // The OpenAPI document lists the Range header as required by mistake: the whole file is bytes=0-.
      .GET('/media/{id}/content', {
        params: { path: { id: item.id }, header: { range: 'bytes=0-' } },
        parseAs: 'blob',
        signal: controller.signal,
      })
      .then(({ data }) => {
        if (data instanceof Blob && !controller.signal.aborted) setUrl((objectUrl = URL.createObjectURL(data)));
      })
      .catch(() => undefined);
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [api, item.id, isImage]);
  if (isImage && url) return <img className="thumb" src={url} alt="" />;
  return (
    <div className="thumb" aria-hidden="true">
      {item.mime_type.split('/')[0]}
    </div>
  );
}
