import type {
  FakeAi,
  FakeBluesky,
  FakeLinkedIn,
  FakeMastodon,
  FakeServer,
  FakeSocialNetwork,
  FakeThreads,
  FakeInstagram,
  FakeTikTok,
  FakeX,
  FakeYouTube,
  PrivateNats,
  RunningStack,
  SmtpSink,
  TemporaryDatabase,
} from '@social/testing';

/** What global setup started and global teardown stops (same process, shared globalThis). */
export interface E2eState {
  stack: RunningStack;
  nats: PrivateNats;
  database: TemporaryDatabase;
  mail: SmtpSink;
  ai: FakeAi;
  network: FakeSocialNetwork;
  bluesky: FakeBluesky;
  mastodon: FakeMastodon;
  linkedin: FakeLinkedIn;
  threads: FakeThreads;
  facebook: FakeServer;
  instagram: FakeInstagram;
  x: FakeX;
  discord: FakeServer;
  telegram: FakeServer;
  tiktok: FakeTikTok;
  youtube: FakeYouTube;
}
