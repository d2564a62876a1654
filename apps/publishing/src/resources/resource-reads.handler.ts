import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { PublishingPatterns, ReadResourceRequest, type ResourceAnswer } from '@social/contracts';
import { validateInput } from '@social/platform';
import { ResourceReads } from './resource-reads.service.js';

/** Service to service (webhooks): a resource as the API shows it, for the `data` of an event's deliveries. */
@Controller()
export class ResourceReadsHandler {
  constructor(private readonly reads: ResourceReads) {}

  @MessagePattern(PublishingPatterns.readResource)
  async read(@Payload() payload: unknown): Promise<ResourceAnswer> {
    return { resource: await this.reads.read(validateInput(ReadResourceRequest, payload, 'body')) };
  }
}
