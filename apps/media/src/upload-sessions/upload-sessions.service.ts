import { Inject, Injectable } from '@nestjs/common';
import {
  CompleteUploadSessionRequest,
  CreateUploadSessionRequest,
  HttpReply,
  MediaItem,
  MediaUploadSession,
  Principal,
  PROJECT_ASSET_COMPLETED_SUBJECT,
  PROJECT_ASSET_FAILED_SUBJECT,
  ProjectAssetCheck,
  ProjectAssetCheckRequest,
  ProjectAssetCompletedEvent,
  ProjectAssetFailedEvent,
  VideoProjectPatterns,
  UPLOAD_SESSION_TTL_MS,
  UploadSessionOperations,
  UploadTarget,
} from '@social/contracts';
import {
  AccessControl,
  enqueueEvent,
  explainingConstraint,
  IdempotentRequests,
  InstanceSettings,
  isUniqueViolation,
  type MediaStorage,
  isMediaUploadKey,
  mediaObjectKey,
  mediaUploadKey,
  Problem,
  problems,
  RpcClient,
  SERVICE_CONFIG,
  SERVICE_LOGGER,
  storageUnavailable,
  uploadSessionExpired,
  UploadTokens,
} from '@social/platform';
import type { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import type { MediaConfig } from '../config.js';
import { analysisChannel, enqueueItemAnalysed } from '../analysis/resolved-media.js';
import { findMediaItem, MediaItemRow, toMediaItem } from '../library/media-item.row.js';
import { PublicUrls } from '../public-urls/public-urls.js';
import { MEDIA_STORAGE } from '../storage/storage.module.js';
import { inspectContent } from './content-inspection.js';
import { requireUploadRoom } from './upload-quota.js';
import { contentTypeFor, declaredFamily, familyOf, isVideo } from './media-types.js';

const contentRefused = (message: string) =>
  new Problem(422, 'validation_failed', `body.content ${message}.`, { errors: [{ location: 'body.content', message }] });

const uploadReplaced = () =>
  problems.conflict('upload_incomplete', 'The upload was replaced while it was being completed; complete it again.');

/** The ready library item of the workspace holding these bytes (the dedupe index's key), if any; project assets' items never count. */
async function findReadyCopy(db: EntityManager, workspaceId: string, sha256: string, size: number): Promise<string | undefined> {
  const [row] = await db.query<Array<Pick<MediaItemRow, 'id'>>>(
    `SELECT id FROM media_items
     WHERE workspace_id = $1 AND status = 'ready' AND sha256 = $2 AND size = $3 AND project_asset_id IS NULL AND poster_of IS NULL`,
    [workspaceId, sha256, size],
  );
  return row?.id;
}

const PROJECT_ASSET_UPLOAD_INDEX = 'media_items_project_asset_idx';
const uploadAlreadyOpen = () =>
  new Problem(409, 'project_asset_upload_exists', 'The project asset already has an open or completed upload; send its bytes there.', {
    errors: [{ location: 'body.project_asset_id', message: 'already has an open or completed upload' }],
  });

/** One open or ready upload per project asset (the unique index settles races). */
async function requireNoUploadFor(db: EntityManager, projectAssetId: string): Promise<void> {
  const [row] = await db.query<Array<Pick<MediaItemRow, 'id'>>>(
    `SELECT id FROM media_items WHERE project_asset_id = $1 AND status IN ('pending', 'ready')`,
    [projectAssetId],
  );
  if (row) throw uploadAlreadyOpen();
}

/** Tells creative the upload of a project asset was refused or expired (the asset becomes failed), in the caller's transaction. */
export async function announceAssetFailed(
  db: EntityManager,
  item: { id: string; workspaceId: string; projectAssetId: string },
  reason: string,
): Promise<void> {
  await enqueueEvent(db, PROJECT_ASSET_FAILED_SUBJECT, {
    workspace_id: item.workspaceId,
    project_asset_id: item.projectAssetId,
    media_id: item.id,
    reason,
  } satisfies ProjectAssetFailedEvent);
}

@Injectable()
export class UploadSessionsService {
  private readonly idempotency: IdempotentRequests;
  private readonly tokens: UploadTokens;
  /** MEDIA_WORKSPACE_QUOTA_BYTES. */
  private readonly quotaBytes: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
    private readonly settings: InstanceSettings,
    private readonly rpc: RpcClient,
    private readonly publicUrls: PublicUrls,
    @Inject(MEDIA_STORAGE) private readonly storage: MediaStorage,
    @Inject(SERVICE_CONFIG) config: MediaConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {
    this.idempotency = new IdempotentRequests(dataSource);
    this.tokens = new UploadTokens(config.SECRETS_KEY);
    this.quotaBytes = config.MEDIA_WORKSPACE_QUOTA_BYTES;
  }

  /** E17: a pending item and where to send its bytes, or (200) the ready item with the same sha256 and size. */
  async create(
    principal: Principal,
    input: CreateUploadSessionRequest,
    idempotencyKey: string | null,
  ): Promise<HttpReply<MediaUploadSession>> {
    const workspace = await this.access.requireWorkspace(principal, input.workspace_id, 'editor', 'body');
    const declaredType = input.mime_type?.toLowerCase() ?? '';
    this.checkAllowedType(declaredType, 'body.mime_type');
    const limit = this.limitFor(declaredType, input.filename);
    if (input.size > limit) {
      throw new Problem(413, 'media_too_large', `This upload may be at most ${limit} bytes.`, {
        errors: [{ location: 'body.size', message: `must be at most ${limit} bytes`, value: input.size }],
      });
    }
    const sha256 = input.sha256?.toLowerCase() ?? '';
    const projectAssetId = input.project_asset_id?.toLowerCase() ?? null;
    if (projectAssetId) await this.checkProjectAsset(workspace.workspace_id, projectAssetId, input.size);
    const scope = {
      key: idempotencyKey,
      userId: principal.userId,
      workspaceId: workspace.workspace_id,
      operation: UploadSessionOperations.create.subject,
      request: { ...input, workspace_id: workspace.workspace_id },
    };
    return this.idempotency.run<MediaUploadSession>(scope, async (db) => {
      // A project asset's bytes are its own item (private to the project): never deduplicated.
      if (sha256 && !projectAssetId) {
        const existing = await findReadyCopy(db, workspace.workspace_id, sha256, input.size);
        if (existing) {
          return {
            status: 200,
            body: {
              media_id: existing,
              deduped: true,
              complete_url: '',
              project_asset_id: input.project_asset_id?.toLowerCase() ?? '',
              upload: { method: '', url: '', headers: {}, object_key: '', expires_at: '' },
            },
          };
        }
      }
      if (projectAssetId) await requireNoUploadFor(db, projectAssetId);
      await requireUploadRoom(db, workspace.workspace_id, input.size, this.quotaBytes);
      const id = uuidv7();
      const now = new Date();
      const expiresAt = new Date(now.getTime() + UPLOAD_SESSION_TTL_MS);
      const itemKey = mediaObjectKey(workspace.workspace_id, id);
      // A presigned PUT writes one key the client keeps until it expires (completion snapshots it);
      // gateway uploads each write a key of their own, recorded by commitUpload.
      const presignedKey = this.storage.createUploadTarget ? mediaUploadKey(workspace.workspace_id, id) : '';
      await explainingConstraint(
        () =>
          db.query(
            `INSERT INTO media_items (id, workspace_id, filename, declared_mime_type, declared_sha256, size, status, object_key,
                                      project_asset_id, created_by, created_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $8, $9, $10, $11)`,
            [
              id,
              workspace.workspace_id,
              input.filename,
              declaredType,
              sha256,
              input.size,
              presignedKey,
              projectAssetId,
              principal.userId,
              now,
              expiresAt,
            ],
          ),
        PROJECT_ASSET_UPLOAD_INDEX,
        uploadAlreadyOpen,
      );
      const contentType = contentTypeFor(declaredType, input.filename);
      const target = this.storage.createUploadTarget
        ? await this.storage.createUploadTarget(presignedKey, input.size, contentType, expiresAt)
        : {
            // Relative: the gateway puts its {base_url} in front (as it does for complete_url).
            url: `/media/upload-session/${id}/content?token=${this.tokens.sign(id, expiresAt)}`,
            headers: { 'Content-Type': contentType },
          };
      const objectKey = presignedKey || itemKey;
      return {
        status: 201,
        body: {
          media_id: id,
          deduped: false,
          complete_url: `/media/upload-session/${id}/complete`,
          project_asset_id: input.project_asset_id?.toLowerCase() ?? '',
          upload: { method: 'PUT', url: target.url, headers: target.headers, object_key: objectKey, expires_at: expiresAt.toISOString() },
        },
      };
    });
  }

  /**
   * E17 with `project_asset_id`: creative must know it as a pending asset of this workspace, reserved
   * for this size. Its refusals are E17's, located at the member: unknown (or another workspace's)
   * 422, not pending or its project trashed 409 (creative's code), another size 422 at `body.size`.
   */
  private async checkProjectAsset(workspaceId: string, projectAssetId: string, size: number): Promise<void> {
    let asset: ProjectAssetCheck;
    try {
      asset = await this.rpc.send<ProjectAssetCheck>(VideoProjectPatterns.checkAsset, {
        workspace_id: workspaceId,
        project_asset_id: projectAssetId,
      } satisfies ProjectAssetCheckRequest);
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      const location = 'body.project_asset_id';
      if (error.status === 404)
        throw problems.invalid(location, 'must be a project asset of a video project in this workspace', projectAssetId);
      if (error.status === 409)
        throw new Problem(409, error.code, error.detail, { errors: [{ location, message: error.detail, value: projectAssetId }] });
      throw error;
    }
    if (asset.size !== size) throw problems.invalid('body.size', `must be the size reserved for the project asset (${asset.size})`, size);
  }

  /**
   * Internal, for the gateway's signed upload route (the token is checked
   * there): a key for this PUT alone and the most bytes it may take, while the
   * session is open. The bytes become the session's only through commitUpload.
   */
  async uploadTarget(id: string): Promise<UploadTarget> {
    const item = await findMediaItem(this.dataSource.manager, id, false, true);
    this.requireOpen(item);
    return {
      object_key: mediaUploadKey(item.workspaceId, item.id),
      size: Number(item.size),
      non_video_size_limit: this.settings.integer('media_upload_limit_bytes'),
    };
  }

  /**
   * Internal, after the gateway stored a whole upload under its uploadTarget key: that object becomes
   * the session's bytes, only while the session is pending (row lock, so a completion sees one or the
   * other); the bytes sent before are dropped. Refused once complete or expired: the gateway then
   * deletes what it stored, and a ready item's bytes never change.
   */
  async commitUpload(id: string, objectKey: string): Promise<void> {
    const replaced = await this.dataSource.transaction(async (db) => {
      const item = await findMediaItem(db, id, true, true);
      this.requireOpen(item);
      if (!isMediaUploadKey(objectKey, item.workspaceId, item.id))
        throw problems.invalid('body.object_key', "must be a key of this session's uploads", objectKey);
      await db.query(`UPDATE media_items SET object_key = $2 WHERE id = $1`, [id, objectKey]);
      return item.objectKey;
    });
    if (replaced !== objectKey) await this.dropObject(replaced);
  }

  /** The ready item a merged session's bytes went to (the tombstone goes with it, so it exists). */
  private async mergedItem(db: EntityManager, tombstone: MediaItemRow): Promise<MediaItem> {
    const target = tombstone.mergedInto ? await findMediaItem(db, tombstone.mergedInto) : null;
    if (!target) throw problems.notFound('No such upload session.');
    return toMediaItem(target);
  }

  private requireOpen(item: MediaItemRow | null): asserts item is MediaItemRow {
    if (!item) throw problems.notFound('No such upload session.');
    if (item.status === 'expired') throw uploadSessionExpired();
    if (item.status !== 'pending')
      throw problems.conflict('upload_session_completed', 'This upload session is complete; its bytes can no longer change.');
    if (item.expiresAt.getTime() <= Date.now()) throw uploadSessionExpired();
  }

  /**
   * Checks the stored bytes (size, SHA-256, real type, dimensions, duration)
   * and makes the item ready, or answers the ready item with the same bytes
   * (this copy is dropped). Repeating it answers the same item.
   */
  async complete(principal: Principal, id: string, input: CompleteUploadSessionRequest): Promise<MediaItem> {
    const item = await this.access.requireVisible(
      principal,
      () => findMediaItem(this.dataSource.manager, id, false, true),
      'editor',
      'No such upload session.',
    );
    if (input.workspace_id.toLowerCase() !== item.workspaceId) {
      throw problems.invalid('body.workspace_id', "must be the upload session's workspace", input.workspace_id);
    }
    if (item.status === 'ready') return toMediaItem(item);
    if (item.status === 'merged') return this.mergedItem(this.dataSource.manager, item);
    if (item.status === 'expired' || item.expiresAt.getTime() <= Date.now()) throw uploadSessionExpired();
    const uploaded = item.objectKey;
    const noBytes = () =>
      problems.conflict('upload_incomplete', 'No bytes have been uploaded yet; send the file to the upload URL first.', {
        received_bytes: 0,
        expected_bytes: Number(item.size),
      });
    if (!uploaded) throw noBytes();
    // What is inspected must be what the item keeps: a presigned key can still be overwritten by its
    // client, so it is snapshotted first; a gateway upload's key is written once (commitUpload).
    let inspected = uploaded;
    if (this.storage.copy) {
      inspected = mediaUploadKey(item.workspaceId, item.id);
      if (!(await this.storage.copy(uploaded, inspected))) throw noBytes();
    }
    let settled = false;
    let kept = '';
    try {
      const facts = await this.inspect(item, inspected).catch(async (error: unknown) => {
        // Its bytes replaced (and dropped) by a newer upload, or swept, while being read: say so.
        const current = await findMediaItem(this.dataSource.manager, item.id, false, true);
        if (current?.status === 'expired') throw uploadSessionExpired();
        if (current?.status === 'pending' && current.objectKey !== uploaded) throw uploadReplaced();
        // Bytes we refuse to keep: the project asset they were for has failed (another upload may still complete it).
        if (item.projectAssetId && error instanceof Problem && (error.status === 422 || error.status === 413)) {
          const projectAssetId = item.projectAssetId;
          const reason = error.status === 413 ? 'content_too_large' : 'content_refused';
          await this.dataSource.transaction((db) =>
            announceAssetFailed(db, { id: item.id, workspaceId: item.workspaceId, projectAssetId }, reason),
          );
        }
        throw error;
      });
      for (let attempt = 0; ; attempt += 1) {
        try {
          const outcome = await this.dataSource.transaction((db) => this.makeReady(db, item, uploaded, inspected, facts));
          settled = true;
          kept = outcome.objectKey;
          return outcome.item;
        } catch (error) {
          // A racing completion of the same bytes won the dedupe index: answer its item.
          if (!isUniqueViolation(error) || attempt > 0) throw error;
        }
      }
    } finally {
      // What the item does not keep: a snapshot unless kept; once the item is settled (ready, or
      // dropped as a duplicate), the upload too. A pending item keeps its upload for the next try.
      for (const key of new Set([inspected, uploaded])) {
        if (key !== kept && (key !== uploaded || settled)) await this.dropObject(key);
      }
    }
  }

  /** Size, SHA-256, real type, dimensions and duration of the stored bytes, refusing what may not be kept. */
  private async inspect(item: MediaItemRow, key: string): Promise<Awaited<ReturnType<typeof inspectContent>>> {
    const declared = Number(item.size);
    const stored = await this.storage.stat(key);
    if (!stored || stored.size !== declared) {
      throw problems.conflict(
        'upload_incomplete',
        stored
          ? `The upload holds ${stored.size} of the ${declared} bytes declared; send the whole file to the upload URL again.`
          : 'No bytes have been uploaded yet; send the file to the upload URL first.',
        { received_bytes: stored?.size ?? 0, expected_bytes: declared },
      );
    }
    const content = await this.storage.read(key);
    if (!content) throw problems.conflict('upload_incomplete', 'No bytes have been uploaded yet; send the file to the upload URL first.');
    const facts = await inspectContent(content).catch((error: unknown) => {
      // The stream failing midway is storage failing (guardedStorage answers the calls, not the stream).
      this.logger.warn({ err: error, object_key: key }, 'reading an upload from storage failed');
      throw storageUnavailable();
    });
    if (facts.size !== declared) {
      throw problems.conflict(
        'upload_incomplete',
        `The upload holds ${facts.size} of the ${declared} bytes declared; send the whole file again.`,
      );
    }
    if (facts.refused) throw contentRefused(`is refused: ${facts.refused}`);
    this.checkDeclaredFamily(item, facts.mimeType);
    this.checkAllowedType(facts.mimeType, 'body.content');
    const limit = this.limitFor(facts.mimeType, '');
    if (facts.size > limit) {
      throw new Problem(413, 'media_too_large', `A ${facts.mimeType} upload may be at most ${limit} bytes.`, {
        errors: [{ location: 'body.content', message: `must be at most ${limit} bytes for ${facts.mimeType}` }],
      });
    }
    return facts;
  }

  /**
   * With the item locked: it becomes ready keeping `inspected` (its bytes are still the ones committed
   * as `uploaded`), or it is dropped for the ready item with the same bytes. `objectKey` is the key
   * the answered item keeps ("" when it is another item).
   */
  private async makeReady(
    db: EntityManager,
    item: MediaItemRow,
    uploaded: string,
    inspected: string,
    facts: Awaited<ReturnType<typeof inspectContent>>,
  ): Promise<{ item: MediaItem; objectKey: string }> {
    const current = await findMediaItem(db, item.id, true, true);
    if (!current) throw problems.notFound('No such upload session.');
    if (current.status === 'ready') return { item: toMediaItem(current), objectKey: current.objectKey };
    if (current.status === 'merged') return { item: await this.mergedItem(db, current), objectKey: '' };
    if (current.status === 'expired') throw uploadSessionExpired();
    if (current.objectKey !== uploaded) throw uploadReplaced();
    const duplicate = current.projectAssetId ? undefined : await findReadyCopy(db, item.workspaceId, facts.sha256, facts.size);
    if (duplicate) {
      // A tombstone, so that repeating this completion answers the same item.
      await db.query(`DELETE FROM media_item_tags WHERE media_id = $1`, [item.id]);
      await db.query(`UPDATE media_items SET status = 'merged', merged_into = $2, object_key = '', completed_at = now() WHERE id = $1`, [
        item.id,
        duplicate,
      ]);
      const existing = await findMediaItem(db, duplicate);
      return { item: toMediaItem(existing!), objectKey: '' };
    }
    // A video is probed after this answer (analysis pending, the worker woken); anything else is analysed now.
    // The worker also self-checks the public URL when networks can reach PUBLIC_BASE_URL.
    const probed = facts.mimeType.startsWith('video/');
    await db.query(
      `UPDATE media_items SET status = 'ready', object_key = $7, mime_type = $2, sha256 = $3, width = $4, height = $5, duration_ms = $6,
              completed_at = now(), analysis_status = $8, analysis_next_at = now(), public_check_due = $9
        WHERE id = $1`,
      [
        item.id,
        facts.mimeType,
        facts.sha256,
        facts.width,
        facts.height,
        facts.durationMs,
        inspected,
        probed ? 'pending' : 'ready',
        this.publicUrls.isPublic,
      ],
    );
    if (probed || this.publicUrls.isPublic) await db.query(`SELECT pg_notify($1 || current_schema(), '')`, [analysisChannel('')]);
    if (!probed && !current.projectAssetId) await enqueueItemAnalysed(db, (await findMediaItem(db, item.id))!, this.publicUrls);
    if (current.projectAssetId) {
      // The asset becomes ready with this item iff the item does.
      await enqueueEvent(db, PROJECT_ASSET_COMPLETED_SUBJECT, {
        workspace_id: item.workspaceId,
        project_asset_id: current.projectAssetId,
        media_id: item.id,
        sha256: facts.sha256,
        size: facts.size,
        mime_type: facts.mimeType,
      } satisfies ProjectAssetCompletedEvent);
    }
    return { item: toMediaItem((await findMediaItem(db, item.id))!), objectKey: inspected };
  }

  private async dropObject(key: string): Promise<void> {
    try {
      await this.storage.delete(key);
    } catch (error) {
      // Left for nobody to read: logged, not failed (the answer is already decided).
      this.logger.warn({ err: error, object_key: key }, 'could not delete a duplicate upload');
    }
  }

  /** 50 MiB, videos 4 GiB (instance settings). */
  /**
   * Contract §6: the bytes must be of the family declared (session type, else
   * extension); a type outside the families is judged by the allowed types alone.
   */
  private checkDeclaredFamily(item: MediaItemRow, sniffedType: string): void {
    const declared = declaredFamily(item.declaredMimeType, item.filename);
    const sniffed = familyOf(sniffedType);
    if (declared && sniffed && declared !== sniffed)
      throw contentRefused(`is refused: it is ${sniffed} (${sniffedType}), not the ${declared} declared`);
  }

  private limitFor(mimeType: string, filename: string): number {
    return isVideo(mimeType, filename)
      ? this.settings.integer('media_video_upload_limit_bytes')
      : this.settings.integer('media_upload_limit_bytes');
  }

  private checkAllowedType(mimeType: string, location: string): void {
    const allowed = this.settings.list('media_allowed_mime_types').map((type) => type.toLowerCase());
    if (!mimeType || allowed.length === 0 || allowed.includes(mimeType)) return;
    const message = `must be one of the allowed types (${allowed.join(', ')}), not ${mimeType}`;
    throw new Problem(422, 'validation_failed', `${location} ${message}.`, { errors: [{ location, message }] });
  }
}
