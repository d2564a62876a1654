/**
 * Boots the platform once for the e2e suites, as it runs in production: every
 * app from its build output as its own process, a fresh PostgreSQL database,
 * and a private nats-server (so a developer's running stack on the shared
 * NATS cannot answer our requests). Suites read E2E_BASE_URL.
 */
import {
  adminEnvironment,
  APPS,
  fakeNetworkEnvironment,
  createTemporaryDatabase,
  deliveryTestEnvironment,
  insightsTestEnvironment,
  notificationsTestEnvironment,
  webhooksTestEnvironment,
  findNatsServer,
  freePorts,
  freePortOutsideEphemeralRange,
  NATS_INSTALL_HINT,
  generateSecrets,
  startFakeBluesky,
  startFakeDiscord,
  startFakeLinkedIn,
  startFakeMastodon,
  startFakeTelegram,
  startFakeThreads,
  startFakeFacebook,
  startFakeInstagram,
  startFakeTikTok,
  startFakeX,
  startFakeYouTube,
  startFakeSocialNetwork,
  natsAnswers,
  PrivateNats,
  startFakeAi,
  startPrivateNats,
  startSmtpSink,
  startStack,
} from '@social/testing';
import { randomBytes } from 'node:crypto';
import { mkdirSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { E2eState } from './state.js';

/**
 * A private nats-server when one can be started (isolation from any dev stack
 * on the shared server); else E2E_NATS_URL or NATS_URL if it answers.
 */
async function natsForTests(): Promise<PrivateNats> {
  const shared = process.env.E2E_NATS_URL ?? process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  if (process.env.E2E_NATS_URL && (await natsAnswers(shared))) return { url: shared, stop: async () => undefined };
  if (findNatsServer()) return startPrivateNats();
  if (await natsAnswers(shared)) {
    process.stderr.write(`e2e: no nats-server on PATH; using ${shared} (do not run a dev stack on it meanwhile)\n`);
    return { url: shared, stop: async () => undefined };
  }
  throw new Error(NATS_INSTALL_HINT);
}

export default async function globalSetup() {
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = await createTemporaryDatabase(adminUrl);
  const nats = await natsForTests();
  const logDir = join(tmpdir(), 'platform-e2e');
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `stack-${process.pid}.log`);
  const log = openSync(logFile, 'a');
  const secrets = generateSecrets();
  // A real SMTP server that keeps every mail; suites read and steer it through E2E_MAIL_URL.
  const mail = await startSmtpSink();
  // A local OpenAI-compatible provider (E16), scripted through E2E_AI_URL; no test needs the internet.
  const ai = await startFakeAi();
  const aiApiKey = `sk-e2e-${randomBytes(12).toString('hex')}`;
  // Every OAuth network, faked on one local server: the platform never reaches the internet in tests.
  const network = await startFakeSocialNetwork();
  // Bluesky (AT Protocol, app passwords): a fake PDS, scripted through E2E_FAKE_BLUESKY_URL.
  const bluesky = await startFakeBluesky();
  // Mastodon's API (statuses, media), scripted through E2E_FAKE_MASTODON_URL; what it does not know
  // (OAuth, tokens it was not told about) it passes to the OAuth fake, which connects mastodon accounts.
  const mastodon = await startFakeMastodon({ upstream: network.origin });
  // LinkedIn's REST API (posts, images, videos), scripted through E2E_FAKE_LINKEDIN_URL; OAuth and unknown tokens go on to the OAuth fake.
  const linkedin = await startFakeLinkedIn({ upstream: network.origin });
  // Threads' API (containers, publishing), scripted through E2E_FAKE_THREADS_URL; it asks the OAuth fake whose
  // short-lived token it trades for a long-lived one, and passes it what it does not know.
  const threads = await startFakeThreads({ upstream: network.origin });
  // The Graph API for Facebook Pages (feed, photos, video upload phases), scripted through E2E_FAKE_FACEBOOK_URL; it asks the
  // OAuth fake whose short-lived token it trades for a long-lived one, and passes it the code exchange and what it does not know.
  const facebook = await startFakeFacebook({ upstream: network.origin });
  // The Instagram API (containers, media_publish, comments, insights), scripted through E2E_FAKE_INSTAGRAM_URL; it asks the
  // OAuth fake whose short-lived token it trades for a long-lived one, and passes it what it does not know.
  const instagram = await startFakeInstagram({ upstream: network.origin });
  // X's API v2 (posts, chunked media upload), scripted through E2E_FAKE_X_URL; OAuth and unknown tokens go to the OAuth fake.
  const x = await startFakeX({ upstream: network.origin });
  // YouTube's Data API (channels, resumable uploads), scripted through E2E_FAKE_YOUTUBE_URL; OAuth and unknown tokens go to the OAuth fake.
  const youtube = await startFakeYouTube({ upstream: network.origin });
  // Discord's channel webhooks and Telegram's Bot API, scripted through E2E_FAKE_DISCORD_URL / E2E_FAKE_TELEGRAM_URL.
  const discord = await startFakeDiscord();
  const telegram = await startFakeTelegram();
  // TikTok's Content Posting and Display APIs (chunked uploads, photo pulls, post status), scripted through
  // E2E_FAKE_TIKTOK_URL; the code exchange and tokens it was not told about go to the OAuth fake.
  const tiktok = await startFakeTikTok({ upstream: network.origin });
  // Ports the stack listens on are picked last, right before it starts: a port freePort found and released is
  // free only until someone else binds it, and every fake above binds an ephemeral port of its own.
  // Every app serves /metrics on a port of its own; the metrics suite scrapes them (E2E_METRICS_PORTS).
  const [port, ...appPorts] = await freePorts(1 + APPS.length);
  // The webhooks suite's receiver listens here (it starts in the suite, minutes later: a port outside the ephemeral
  // range, which no connection made meanwhile can take); WEBHOOK_ALLOWED_ORIGINS lets it be loopback and http.
  const webhookReceiverPort = await freePortOutsideEphemeralRange();
  const metricsPorts = Object.fromEntries(APPS.map((app, index) => [app, appPorts[index]] as const));
  const stack = await startStack({
    databaseUrl: database.url,
    natsUrl: nats.url,
    port,
    secrets,
    publicBaseUrl: `http://127.0.0.1:${port}`,
    // Debug, so the suites can follow a request id through every service's log.
    logLevel: process.env.E2E_LOG_LEVEL ?? 'debug',
    // A busy machine may need longer than a minute to start eight apps: 3 minutes unless E2E_READY_TIMEOUT_MS says.
    readyTimeoutMs: Number(process.env.E2E_READY_TIMEOUT_MS) || 180_000,
    // The suites play the proxy in front: each call says which client address it comes from.
    env: {
      RPC_TIMEOUT_MS: '5000',
      // A render's time budget stays inside RPC_TIMEOUT_MS, so a slow page is 422, never the gateway's 504.
      RENDER_TIMEOUT_MS: '2000',
      // The suites' calls come from loopback: that hop is the trusted proxy, its X-Forwarded-For the client.
      TRUSTED_PROXIES: '127.0.0.0/8,::1/128',
      SMTP_URL: mail.smtpUrl,
      ...adminEnvironment(),
      // AI_MODEL comes from adminEnvironment(); the provider budget stays well inside RPC_TIMEOUT_MS.
      AI_BASE_URL: `${ai.url}/v1`,
      AI_API_KEY: aiApiKey,
      AI_TIMEOUT_MS: '1500',
      // PROVIDER_API_ORIGINS and a short PROVIDER_TIMEOUT_MS for the fake OAuth network and the fake PDS.
      ...fakeNetworkEnvironment(network.origin, {
        bluesky: bluesky.origin,
        mastodon: mastodon.origin,
        linkedin: linkedin.origin,
        threads: threads.origin,
        facebook: facebook.origin,
        instagram: instagram.origin,
        x: x.origin,
        youtube: youtube.origin,
        discord: discord.origin,
        telegram: telegram.origin,
        tiktok: tiktok.origin,
      }),
      // Expired upload sessions are swept every second (suites expire them by hand).
      MEDIA_SWEEP_INTERVAL_MS: '1000',
      MEDIA_ORPHAN_SWEEP_INTERVAL_MS: '1000',
      // Trashed video projects past their retention are purged within a second (suites age them by hand).
      CREATIVE_SWEEP_INTERVAL_MS: '1000',
      // Short leases, polls and retries: delivery suites wait seconds, not minutes.
      ...deliveryTestEnvironment(),
      // Sync jobs poll and take over quickly too.
      ...insightsTestEnvironment(),
      // Digests checked twice a second, mail retried after 0.3 s doubling: notification suites wait seconds.
      ...notificationsTestEnvironment(),
      // Retries after fractions of a second, a 2 s receiver timeout, deactivation after 3 s of failures.
      ...webhooksTestEnvironment([`http://127.0.0.1:${webhookReceiverPort}`]),
      // Passkeys need a domain as relying party, never an IP address: the browser suites open the console at
      // localhost (support/browser.ts), the API suites sign for the same origin (accounts/passkeys.e2e-spec.ts).
      WEBAUTHN_RP_ID: 'localhost',
      WEBAUTHN_ORIGIN: `http://localhost:${port}`,
    },
    stdio: ['ignore', log, log],
    metricsPorts,
  }).catch(async (error: unknown) => {
    await ai.stop();
    await mail.stop();
    await network.stop();
    await bluesky.stop();
    await mastodon.stop();
    await linkedin.stop();
    await threads.stop();
    await facebook.stop();
    await instagram.stop();
    await x.stop();
    await youtube.stop();
    await discord.stop();
    await telegram.stop();
    await tiktok.stop();
    await nats.stop();
    await database.drop();
    throw new Error(`${String(error)} (app logs: ${logFile})`);
  });
  process.env.E2E_BASE_URL = stack.baseUrl;
  process.env.E2E_METRICS_PORTS = JSON.stringify(stack.metricsPorts);
  process.env.E2E_WEBHOOK_RECEIVER_PORT = String(webhookReceiverPort);
  process.env.E2E_NATS_URL_IN_USE = nats.url;
  process.env.E2E_DATABASE_URL = database.url;
  process.env.E2E_LOG_FILE = logFile;
  process.env.E2E_MAIL_URL = mail.controlUrl;
  // For suites that start a replica of a service that sends mail (notifications).
  process.env.E2E_SMTP_URL = mail.smtpUrl;
  process.env.E2E_AI_URL = ai.controlUrl;
  process.env.E2E_AI_API_KEY = aiApiKey;
  process.env.E2E_FAKE_NETWORK_URL = network.controlUrl;
  process.env.E2E_FAKE_BLUESKY_URL = bluesky.controlUrl;
  process.env.E2E_FAKE_MASTODON_URL = mastodon.controlUrl;
  process.env.E2E_FAKE_LINKEDIN_URL = linkedin.controlUrl;
  process.env.E2E_FAKE_THREADS_URL = threads.controlUrl;
  process.env.E2E_FAKE_FACEBOOK_URL = facebook.controlUrl;
  process.env.E2E_FAKE_INSTAGRAM_URL = instagram.controlUrl;
  process.env.E2E_FAKE_X_URL = x.controlUrl;
  process.env.E2E_FAKE_YOUTUBE_URL = youtube.controlUrl;
  process.env.E2E_FAKE_DISCORD_URL = discord.controlUrl;
  process.env.E2E_FAKE_TELEGRAM_URL = telegram.controlUrl;
  process.env.E2E_FAKE_TIKTOK_URL = tiktok.controlUrl;
  // For suites that start a second gateway replica of their own.
  process.env.E2E_JWT_PUBLIC_KEY = secrets.jwtPublicKey;
  // Replicas sign the caller tokens of their NATS requests; suites talking to services over raw NATS sign theirs.
  process.env.E2E_JWT_PRIVATE_KEY = secrets.jwtPrivateKey;
  // Gateways verify media upload URLs with a key derived from it; a second publishing replica unseals grants with it.
  process.env.E2E_SECRETS_KEY = secrets.secretsKey;
  const state: E2eState = {
    stack,
    nats,
    database,
    mail,
    ai,
    network,
    bluesky,
    mastodon,
    linkedin,
    threads,
    facebook,
    instagram,
    x,
    discord,
    telegram,
    tiktok,
    youtube,
  };
  (globalThis as { __E2E__?: E2eState }).__E2E__ = state;
}
