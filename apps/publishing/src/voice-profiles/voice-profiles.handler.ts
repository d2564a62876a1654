import { Controller } from '@nestjs/common';
import { type InputOf, type VoiceProfile, type VoiceProfileList, VoiceProfileOperations } from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { VoiceProfilesService } from './voice-profiles.service.js';

@Controller()
export class VoiceProfilesHandler {
  constructor(private readonly profiles: VoiceProfilesService) {}

  @Handles(VoiceProfileOperations.list)
  list(@Input() { principal, query }: InputOf<typeof VoiceProfileOperations.list>): Promise<VoiceProfileList> {
    return this.profiles.list(principal, query.workspace_id);
  }

  @Handles(VoiceProfileOperations.get)
  get(@Input() { principal, params }: InputOf<typeof VoiceProfileOperations.get>): Promise<VoiceProfile> {
    return this.profiles.get(principal, params.id);
  }

  @Handles(VoiceProfileOperations.create)
  create(@Input() { principal, body }: InputOf<typeof VoiceProfileOperations.create>): Promise<VoiceProfile> {
    return this.profiles.create(principal, body);
  }

  @Handles(VoiceProfileOperations.replace)
  replace(@Input() { principal, params, body }: InputOf<typeof VoiceProfileOperations.replace>): Promise<VoiceProfile> {
    return this.profiles.replace(principal, params.id, body);
  }

  @Handles(VoiceProfileOperations.assign)
  assign(@Input() { principal, params, body }: InputOf<typeof VoiceProfileOperations.assign>): Promise<VoiceProfile> {
    return this.profiles.assign(principal, params.id, body);
  }

  @Handles(VoiceProfileOperations.delete)
  async delete(@Input() { principal, params }: InputOf<typeof VoiceProfileOperations.delete>): Promise<null> {
    await this.profiles.delete(principal, params.id);
    return null;
  }
}
