import { ConfigOf, serviceSettings } from '@social/platform';

export const creativeSettings = { ...serviceSettings };
export type CreativeConfig = ConfigOf<typeof creativeSettings>;
