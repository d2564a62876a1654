import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AssignVoiceProfileRequest,
  CreateVoiceProfileRequest,
  ListVoiceProfilesQuery,
  PublishingPatterns,
  ReplaceVoiceProfileRequest,
  RpcRequest,
  VoiceProfile,
  VoiceProfileList,
} from '@social/contracts';
import { pathId, requirePrincipal, validateInput } from '@social/platform';
import { VoiceProfilesService } from './voice-profiles.service.js';

type ById = RpcRequest<unknown, unknown, { id: string }>;

@Controller()
export class VoiceProfilesHandler {
  constructor(private readonly profiles: VoiceProfilesService) {}

  @MessagePattern(PublishingPatterns.listVoiceProfiles)
  list(@Payload() req: RpcRequest): Promise<VoiceProfileList> {
    const query = validateInput(ListVoiceProfilesQuery, req.query, 'query');
    return this.profiles.list(requirePrincipal(req), query.workspace_id);
  }

  @MessagePattern(PublishingPatterns.getVoiceProfile)
  get(@Payload() req: ById): Promise<VoiceProfile> {
    return this.profiles.get(requirePrincipal(req), pathId(req.params.id));
  }

  @MessagePattern(PublishingPatterns.createVoiceProfile)
  create(@Payload() req: RpcRequest): Promise<VoiceProfile> {
    return this.profiles.create(requirePrincipal(req), validateInput(CreateVoiceProfileRequest, req.body, 'body'));
  }

  @MessagePattern(PublishingPatterns.replaceVoiceProfile)
  replace(@Payload() req: ById): Promise<VoiceProfile> {
    const principal = requirePrincipal(req);
    return this.profiles.replace(principal, pathId(req.params.id), validateInput(ReplaceVoiceProfileRequest, req.body, 'body'));
  }

  @MessagePattern(PublishingPatterns.assignVoiceProfile)
  assign(@Payload() req: ById): Promise<VoiceProfile> {
    const principal = requirePrincipal(req);
    return this.profiles.assign(principal, pathId(req.params.id), validateInput(AssignVoiceProfileRequest, req.body, 'body'));
  }

  @MessagePattern(PublishingPatterns.deleteVoiceProfile)
  async delete(@Payload() req: ById): Promise<null> {
    await this.profiles.delete(requirePrincipal(req), pathId(req.params.id));
    return null;
  }
}
