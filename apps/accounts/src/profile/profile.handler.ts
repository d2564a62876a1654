import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AccountsPatterns,
  ProfileOperations,
  type ContactList,
  type GetContactRequest,
  type InputOf,
  type ListContactsRequest,
  type SecurityStatus,
  type UserContact,
  type UserProfile,
} from '@social/contracts';
import { Handles, Input } from '@social/platform';

import { ProfileService } from './profile.service.js';

@Controller()
export class ProfileHandler {
  constructor(private readonly profiles: ProfileService) {}

  @Handles(ProfileOperations.get)
  get(@Input() { principal }: InputOf<typeof ProfileOperations.get>): Promise<UserProfile> {
    return this.profiles.get(principal.userId);
  }

  @Handles(ProfileOperations.update)
  update(@Input() { principal, body }: InputOf<typeof ProfileOperations.update>): Promise<UserProfile> {
    return this.profiles.update(principal.userId, body);
  }

  @Handles(ProfileOperations.getSecurity)
  security(@Input() { principal }: InputOf<typeof ProfileOperations.getSecurity>): Promise<SecurityStatus> {
    return this.profiles.security(principal.userId);
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
