import type {
  FakeAi,
  FakeBluesky,
  FakeMastodon,
  FakeServer,
  FakeSocialNetwork,
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
  discord: FakeServer;
  telegram: FakeServer;
}
