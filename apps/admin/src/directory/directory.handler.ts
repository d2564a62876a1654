import { Controller } from '@nestjs/common';
import { AdminDirectoryOperations, type InputOf, type InstanceOverview, type InstanceUserPage } from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { DirectoryService } from './directory.service.js';

@Controller()
export class DirectoryHandler {
  constructor(private readonly directory: DirectoryService) {}

  @Handles(AdminDirectoryOperations.listUsers)
  listUsers(@Input() { query }: InputOf<typeof AdminDirectoryOperations.listUsers>): Promise<InstanceUserPage> {
    return this.directory.listUsers(query);
  }

  @Handles(AdminDirectoryOperations.overview)
  overview(@Input() _checkedCaller: InputOf<typeof AdminDirectoryOperations.overview>): Promise<InstanceOverview> {
    return this.directory.overview();
  }
}
