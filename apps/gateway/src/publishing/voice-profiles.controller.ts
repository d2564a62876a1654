import { Body, Controller, Delete, Get, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AssignVoiceProfileRequest,
  CreateVoiceProfileRequest,
  ListVoiceProfilesQuery,
  ReplaceVoiceProfileRequest,
  VoiceProfile,
  VoiceProfileList,
  VoiceProfileOperations,
} from '@social/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { ValidQuery } from '../http/valid-query.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Voice profiles')
@ApiBearerAuth()
@Controller('voice-profiles')
export class VoiceProfilesController {
  constructor(private readonly forward: Forwarder) {}

  @Post()
  @ApiOperation({
    summary: 'Create a voice profile (editors): revision 1, schema_version 1',
    description:
      'At most 100 profiles per workspace (409 `too_many_voice_profiles`); a name used by another profile of the workspace, ignoring ' +
      'case, is 409 `duplicate_name`.',
  })
  @Returns(VoiceProfile, 201)
  @Refuses(400, 403, 409, 413, 415, 422, 'duplicate_name', 'too_many_voice_profiles')
  async create(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new ValidBody(CreateVoiceProfileRequest)) body: CreateVoiceProfileRequest,
  ): Promise<VoiceProfile> {
    const profile = await this.forward.send(VoiceProfileOperations.create, req, { body });
    reply.header('location', `/voice-profiles/${profile.id}`);
    return profile;
  }

  @Get()
  @ApiOperation({ summary: "The workspace's voice profiles, by name" })
  @Returns(VoiceProfileList)
  @Refuses(403, 422)
  list(
    @Req() req: FastifyRequest,
    @Query(new ValidQuery(ListVoiceProfilesQuery)) query: ListVoiceProfilesQuery,
  ): Promise<VoiceProfileList> {
    return this.forward.send(VoiceProfileOperations.list, req, { query: { ...query } });
  }

  @Get(':id')
  @ApiOperation({ summary: 'One voice profile' })
  @Returns(VoiceProfile)
  @Refuses(404)
  get(@Req() req: FastifyRequest, @Param('id') id: string): Promise<VoiceProfile> {
    return this.forward.send(VoiceProfileOperations.get, req, { params: { id } });
  }

  @Put(':id')
  @ApiOperation({
    summary: 'Replace a voice profile (editors): its name and definition',
    description:
      'Based on `expected_revision`: when the profile is at another revision the answer is 409 `revision_conflict` carrying ' +
      '`current_revision`, and nothing changes. ' +
      "Success adds 1 to `revision`. `workspace_id` must be the profile's own (422 otherwise).",
  })
  @Returns(VoiceProfile)
  @Refuses(400, 403, 404, 409, 413, 415, 422, 'revision_conflict')
  replace(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Body(new ValidBody(ReplaceVoiceProfileRequest)) body: ReplaceVoiceProfileRequest,
  ): Promise<VoiceProfile> {
    return this.forward.send(VoiceProfileOperations.replace, req, { params: { id }, body });
  }

  @Put(':id/assignments')
  @ApiOperation({
    summary: 'Set the accounts a voice profile applies to (editors)',
    description:
      'Replaces the list; an account has at most one profile, so one assigned elsewhere moves here. Changes neither `revision` nor ' +
      '`updated_at`.',
  })
  @Returns(VoiceProfile)
  @Refuses(400, 403, 404, 413, 415, 422)
  assign(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Body(new ValidBody(AssignVoiceProfileRequest)) body: AssignVoiceProfileRequest,
  ): Promise<VoiceProfile> {
    return this.forward.send(VoiceProfileOperations.assign, req, { params: { id }, body });
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a voice profile (editors); its accounts are left without one' })
  @ReturnsNothing()
  @Refuses(403, 404)
  async remove(@Req() req: FastifyRequest, @Param('id') id: string): Promise<void> {
    await this.forward.send(VoiceProfileOperations.delete, req, { params: { id } });
  }
}
