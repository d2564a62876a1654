import type { E2eState } from './state.js';

export default async function globalTeardown() {
  const state = (globalThis as { __E2E__?: E2eState }).__E2E__;
  if (!state) return;
  await state.stack.stop();
  await state.nats.stop();
  await state.database.drop();
  await state.mail.stop();
  await state.ai.stop();
  await state.network.stop();
  await state.bluesky.stop();
  await state.mastodon.stop();
  await state.linkedin.stop();
  await state.threads.stop();
  await state.facebook.stop();
  await state.instagram.stop();
  await state.x.stop();
  await state.youtube.stop();
  await state.discord.stop();
  await state.telegram.stop();
  await state.tiktok.stop();
}
