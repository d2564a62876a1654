/**
 * What the e2e stack configures through the environment for the admin
 * suites (global setup passes it to every app): provider apps from
 * PROVIDER_APPS and one instance setting from its environment variable.
 */
export const ENVIRONMENT_PROVIDER_APPS = [
  { provider: 'youtube', client_id: 'env-youtube-client', client_secret: 'env-youtube-secret-5f0c1a7e' },
  {
    provider: 'mastodon',
    instance_url: 'https://env.mastodon.example',
    client_id: 'env-mastodon-client',
    client_secret: 'env-mastodon-secret-9b2d4c11',
  },
];

export const ENVIRONMENT_AI_MODEL = 'e2e-environment-model';

export const adminEnvironment = (): Record<string, string> => ({
  PROVIDER_APPS: JSON.stringify(ENVIRONMENT_PROVIDER_APPS),
  AI_MODEL: ENVIRONMENT_AI_MODEL,
});
