import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { Optional } from '../common/optional.js';
import { SchemaName } from '../common/schema-name.js';
import { TargetAccountIds } from './delivery.dto.js';

/** `POST /publications/{id}/preview`: the targets to preview for; neither keeps the publication's own. */
export class PreviewPublicationRequest {
  @ApiPropertyOptional({ format: 'uuid', description: "a social set of the publication's workspace (not with account_ids)" })
  @Optional()
  @IsUUID('all', { message: '$property must be a UUID' })
  social_set_id?: string;

  @TargetAccountIds('active accounts of the workspace (not with social_set_id)')
  account_ids?: string[];
}

/** One media item as the network would receive it (after image processing). */
export class PreviewMedia {
  @ApiProperty({ format: 'uuid' }) media_id: string;
  @ApiProperty({ description: 'the type delivered (a type the network refuses is converted)' }) mime_type: string;
  @ApiProperty({ type: 'integer', description: "pixels after resizing to the network's limits" }) width: number;
  @ApiProperty({ type: 'integer' }) height: number;
  @ApiProperty({ type: 'integer', description: 'bytes delivered' }) size: number;
  @ApiProperty({ description: 'as the network receives it ("" where it takes none)' }) alt_text: string;
}

export class PreviewPart {
  @ApiProperty() text: string;
  @ApiProperty({ type: [PreviewMedia] }) media: PreviewMedia[];
}

export class PreviewProblem {
  @ApiProperty({ description: 'renditions.<social_account_id>.<member>, as in a network_rules problem' }) location: string;
  @ApiProperty({ description: 'network_rules' }) code: string;
  @ApiProperty({ description: 'names the limit' }) message: string;
}

export class RenditionPreview {
  @ApiProperty({ format: 'uuid' }) social_account_id: string;
  @ApiProperty() platform: string;
  @ApiProperty({ type: [PreviewPart], description: 'one per post, in order (more than one: a thread)' }) parts: PreviewPart[];
  @ApiProperty({ type: [PreviewProblem], description: "every violation of the network's rules; [] when it can be sent" })
  problems: PreviewProblem[];
}

@SchemaName('PublicationPreview')
export class PublicationPreview {
  @ApiProperty({ type: [RenditionPreview] }) renditions: RenditionPreview[];
}
