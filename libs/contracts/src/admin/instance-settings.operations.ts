import { operation } from '../common/operation.js';
import { InstanceSettingsResponse, SaveInstanceSettingsRequest } from './instance-settings.dto.js';

/** Instance settings (admin service), for instance administrators. */
export const InstanceSettingsOperations = {
  get: operation({ subject: 'admin.instance-settings.get', caller: 'admin', answer: InstanceSettingsResponse }),
  save: operation({
    subject: 'admin.instance-settings.save',
    caller: 'admin',
    body: SaveInstanceSettingsRequest,
    answer: InstanceSettingsResponse,
  }),
};
