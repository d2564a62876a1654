import { listOf, nothing, operation } from '../common/operation.js';
import { ProviderApp, SaveProviderAppRequest, SaveProviderAppResponse } from './provider-apps.dto.js';

/** Provider apps (admin service), for instance administrators. */
export const ProviderAppOperations = {
  save: operation({ subject: 'admin.provider-apps.save', caller: 'admin', body: SaveProviderAppRequest, answer: SaveProviderAppResponse }),
  list: operation({ subject: 'admin.provider-apps.list', caller: 'admin', answer: listOf(ProviderApp) }),
  delete: operation({ subject: 'admin.provider-apps.delete', caller: 'admin', params: { id: 'No such provider app.' }, answer: nothing }),
};
