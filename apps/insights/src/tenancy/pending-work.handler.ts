import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { INSIGHTS_SERVICE, PendingWorkReply, PendingWorkRequest, pendingWorkPattern } from '@social/contracts';
import { isUuid, problems } from '@social/platform';
import { DataSource } from 'typeorm';

/** An organization's workspaces, as accounts asks (publishing takes as many). */
const MAX_PENDING_WORK_WORKSPACES = 10_000;

/**
 * `insights.tenancy.pendingWork` for E10: queued or running sync jobs are
 * pending jobs (deletion drops them); a follow being sent to a network is a
 * provider write in flight (it blocks deletion until it lands).
 */
@Controller()
export class PendingWorkHandler {
  constructor(private readonly dataSource: DataSource) {}

  @MessagePattern(pendingWorkPattern(INSIGHTS_SERVICE))
  async pendingWork(@Payload() request: PendingWorkRequest): Promise<PendingWorkReply> {
    const workspaceIds: unknown = request?.workspace_ids;
    if (!Array.isArray(workspaceIds) || workspaceIds.length > MAX_PENDING_WORK_WORKSPACES || !workspaceIds.every(isUuid)) {
      throw problems.invalid('workspace_ids', `must be at most ${MAX_PENDING_WORK_WORKSPACES} workspace ids`);
    }
    const [counts] = await this.dataSource.query<Array<{ pending_jobs: number; pending_provider_writes: number }>>(
      `SELECT count(*)::int AS pending_jobs, count(*) FILTER (WHERE kind = 'follow' AND state = 'running')::int AS pending_provider_writes
         FROM sync_jobs WHERE workspace_id = ANY($1::uuid[]) AND state IN ('queued', 'running')`,
      [workspaceIds],
    );
    return { pending_jobs: counts.pending_jobs, pending_cleanup_jobs: 0, pending_provider_writes: counts.pending_provider_writes };
  }
}
