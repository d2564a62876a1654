import { Controller } from '@nestjs/common';
import { type InputOf, type SandboxPostList, SocialAccountOperations } from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { SandboxPostsService } from './sandbox-posts.service.js';

@Controller()
export class SandboxPostsHandler {
  constructor(private readonly posts: SandboxPostsService) {}

  @Handles(SocialAccountOperations.listSandboxPosts)
  list(@Input() { principal, params, query }: InputOf<typeof SocialAccountOperations.listSandboxPosts>): Promise<SandboxPostList> {
    return this.posts.list(principal, params.id, query);
  }
}
