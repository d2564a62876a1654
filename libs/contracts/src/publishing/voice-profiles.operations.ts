import { nothing, operation } from '../common/operation.js';
import {
  AssignVoiceProfileRequest,
  CreateVoiceProfileRequest,
  ListVoiceProfilesQuery,
  ReplaceVoiceProfileRequest,
  VoiceProfile,
  VoiceProfileList,
} from './voice-profiles.dto.js';

/** Voice profiles and the accounts they apply to (publishing service). */
export const VoiceProfileOperations = {
  create: operation({ subject: 'publishing.voice-profiles.create', body: CreateVoiceProfileRequest, answer: VoiceProfile }),
  list: operation({ subject: 'publishing.voice-profiles.list', query: ListVoiceProfilesQuery, answer: VoiceProfileList }),
  get: operation({ subject: 'publishing.voice-profiles.get', params: { id: null }, answer: VoiceProfile }),
  replace: operation({
    subject: 'publishing.voice-profiles.replace',
    params: { id: null },
    body: ReplaceVoiceProfileRequest,
    answer: VoiceProfile,
  }),
  assign: operation({
    subject: 'publishing.voice-profiles.assign',
    params: { id: null },
    body: AssignVoiceProfileRequest,
    answer: VoiceProfile,
  }),
  delete: operation({ subject: 'publishing.voice-profiles.delete', params: { id: null }, answer: nothing }),
};
