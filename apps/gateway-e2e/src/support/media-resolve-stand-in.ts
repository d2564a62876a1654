import { afterAll, beforeAll } from '@jest/globals';
import { type MediaResolveStandIn, type StandInAnalysis, startMediaResolveStandIn } from '@social/testing';

/**
 * TEMPORARY (see startMediaResolveStandIn): `media.library.resolve` answered on the suites' NATS for the suite
 * that calls this, until the media service's own handler is merged; the lead removes it then.
 */
export function mediaResolveStandIn(): { analysis: Map<string, StandInAnalysis> } {
  const analysis = new Map<string, StandInAnalysis>();
  let standIn: MediaResolveStandIn | undefined;
  beforeAll(async () => {
    standIn = await startMediaResolveStandIn(process.env.E2E_NATS_URL_IN_USE!, process.env.E2E_DATABASE_URL!);
    // One map for the whole suite: tests set it before and after the stand-in starts.
    for (const [id, found] of analysis) standIn.analysis.set(id, found);
    analysisOf.current = standIn.analysis;
  });
  afterAll(async () => {
    await standIn?.stop();
  });
  const analysisOf = { current: analysis };
  return {
    get analysis() {
      return analysisOf.current;
    },
  };
}
