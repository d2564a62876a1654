import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AccountsPatterns,
  ContactList,
  GetContactRequest,
  ListContactsRequest,
  RpcRequest,
  SecurityStatus,
  UpdateProfileRequest,
  UserContact,
  UserProfile,
} from '@social/contracts';
import { requireAccountPrincipal, requirePrincipal, validateInput } from '@social/platform';

import { ProfileService } from './profile.service.js';

@Controller()
export class ProfileHandler {
  constructor(private readonly profiles: ProfileService) {}

  @MessagePattern(AccountsPatterns.getProfile)
  get(@Payload() req: RpcRequest): Promise<UserProfile> {
    return this.profiles.get(requirePrincipal(req).userId);
  }

  @MessagePattern(AccountsPatterns.updateProfile)
  update(@Payload() req: RpcRequest<UpdateProfileRequest>): Promise<UserProfile> {
    const principal = requireAccountPrincipal(req);
    return this.profiles.update(principal.userId, validateInput(UpdateProfileRequest, req.body, 'body'));
  }

  @MessagePattern(AccountsPatterns.getSecurity)
  security(@Payload() req: RpcRequest): Promise<SecurityStatus> {
    return this.profiles.security(requireAccountPrincipal(req).userId);
  }

  /** Service-to-service: where to send a user's email notifications. */
  @MessagePattern(AccountsPatterns.getContact)
  contact(@Payload() query: GetContactRequest): Promise<UserContact> {
    return this.profiles.contact(query.userId);
  }

  /** Service-to-service: several users' addresses at once ("" for users that are gone). */
  @MessagePattern(AccountsPatterns.listContacts)
  contacts(@Payload() query: ListContactsRequest): Promise<ContactList> {
    return this.profiles.contacts(Array.isArray(query?.user_ids) ? query.user_ids : []);
  }
}
