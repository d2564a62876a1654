import { Body, Controller, Delete, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ConfirmEmailChangeRequest,
  EmailChangeOperations,
  EmailChangeSummary,
  PendingEmailChange,
  RequestEmailChangeRequest,
  UserProfile,
} from '@social/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RefusesWorkspaceTokens } from '../auth/workspace-tokens.decorator.js';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Account and security')
@ApiBearerAuth()
@RefusesWorkspaceTokens()
@Controller('auth/email-change')
export class EmailChangeController {
  constructor(private readonly forward: Forwarder) {}

  @Post()
  @ApiOperation({
    summary: 'Send a 6-digit code to a new sign-in email (valid 15 minutes); replaces a pending change',
    description:
      'Consumes the reauth_grant only when accepted. 409 email_unavailable (current or taken address) is checked ' +
      'before the rate limit (5 accepted per 15 minutes); 503 email_unavailable_delivery when mail cannot be sent, ' +
      'with nothing changed and the grant still usable.',
  })
  @Returns(EmailChangeSummary, 201)
  @Refuses(400, 401, 403, 409, 413, 415, 422, 429, 503, 504, 'email_unavailable', 'email_unavailable_delivery')
  async request(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new ValidBody(RequestEmailChangeRequest)) body: RequestEmailChangeRequest,
  ): Promise<EmailChangeSummary> {
    const summary = await this.forward.send(EmailChangeOperations.request, req, { body });
    reply.header('location', `/auth/email-change/${summary.id}`);
    return summary;
  }

  @Get()
  @ApiOperation({ summary: 'The email change awaiting its code, or null' })
  @Returns(PendingEmailChange)
  @Refuses(401, 403, 429, 503, 504)
  get(@Req() req: FastifyRequest): Promise<PendingEmailChange> {
    return this.forward.send(EmailChangeOperations.getPending, req);
  }

  @Get(':id')
  @ApiOperation({ summary: "One of the caller's email changes, whatever its state; another user's is 404" })
  @Returns(EmailChangeSummary)
  @Refuses(401, 403, 404, 429, 503, 504)
  getOne(@Req() req: FastifyRequest, @Param('id') id: string): Promise<EmailChangeSummary> {
    return this.forward.send(EmailChangeOperations.get, req, { params: { id } });
  }

  @Post(':id/confirm')
  @ApiOperation({
    summary: 'Confirm with the mailed code: the email changes, is verified, and every other session is signed out',
    description: 'A wrong code is 422 invalid_code; after 5 wrong codes the change is locked (409 code_locked).',
  })
  @Returns(UserProfile)
  @Refuses(400, 401, 403, 404, 409, 413, 415, 422, 429, 503, 504, 'code_locked', 'invalid_code')
  confirm(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Body(new ValidBody(ConfirmEmailChangeRequest)) body: ConfirmEmailChangeRequest,
  ): Promise<UserProfile> {
    return this.forward.send(EmailChangeOperations.confirm, req, { params: { id }, body });
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Cancel a pending email change' })
  @ReturnsNothing()
  @Refuses(401, 403, 404, 409, 429, 503, 504)
  async cancel(@Req() req: FastifyRequest, @Param('id') id: string): Promise<void> {
    await this.forward.send(EmailChangeOperations.cancel, req, { params: { id } });
  }
}
