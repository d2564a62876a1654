import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { mediaObjectKey, mediaUploadKey, uploadKeyMediaId } from './media-storage.js';

describe('uploadKeyMediaId', () => {
  it("names the item of one of mediaUploadKey's keys, and nothing for any other key", () => {
    const [workspaceId, mediaId] = [randomUUID(), randomUUID()];
    expect(uploadKeyMediaId(mediaUploadKey(workspaceId, mediaId))).toBe(mediaId);
    // An item's own key (items from before per-upload keys), a poster's, a nested or malformed one: not uploads.
    expect(uploadKeyMediaId(mediaObjectKey(workspaceId, mediaId))).toBeNull();
    expect(uploadKeyMediaId(`${mediaUploadKey(workspaceId, mediaId)}/more`)).toBeNull();
    expect(uploadKeyMediaId(`${mediaObjectKey(workspaceId, 'not-a-uuid')}/uploads/${randomUUID()}`)).toBeNull();
    expect(uploadKeyMediaId(`exports/${mediaUploadKey(workspaceId, mediaId)}`)).toBeNull();
  });
});
