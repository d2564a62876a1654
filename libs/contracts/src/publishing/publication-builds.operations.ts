import { operation } from '../common/operation.js';
import { PlanPublicationAnglesRequest, PublicationAngles } from './publication-builds.dto.js';

/** Help building publications from the configured AI model (publishing service). */
export const PublicationBuildOperations = {
  planAngles: operation({ subject: 'publishing.publication-builds.angles', body: PlanPublicationAnglesRequest, answer: PublicationAngles }),
};
