import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ListSandboxPostsQuery, PublishingPatterns, RpcRequest, SandboxPostList } from '@social/contracts';
import { pathId, requirePrincipal, validateInput } from '@social/platform';
import { SandboxPostsService } from './sandbox-posts.service.js';

@Controller()
export class SandboxPostsHandler {
  constructor(private readonly posts: SandboxPostsService) {}

  @MessagePattern(PublishingPatterns.listSandboxPosts)
  list(@Payload() req: RpcRequest<unknown, unknown, { id: string }>): Promise<SandboxPostList> {
    const principal = requirePrincipal(req);
    return this.posts.list(principal, pathId(req.params.id), validateInput(ListSandboxPostsQuery, req.query, 'query'));
  }
}
