import { describe, expect, it } from '@jest/globals';
import { listOf, nothing, operation, replyOf } from '@social/contracts';
import { describeMessageContracts } from './message-contracts.js';

class Thing {
  id!: string;
}
class CreateThing {
  name!: string;
}

describe('describeMessageContracts', () => {
  it('describes every XxxOperations entry by subject and lists XxxPatterns subjects', () => {
    const described = describeMessageContracts({
      ThingOperations: {
        create: operation({ subject: 'svc.things.create', body: CreateThing, answer: replyOf(Thing), idempotent: true }),
        list: operation({ subject: 'svc.things.list', caller: 'account', answer: listOf(Thing) }),
        remove: operation({ subject: 'svc.things.delete', params: { id: 'No such thing.' }, answer: nothing }),
      },
      ThingPatterns: { sweep: 'svc.things.sweep' },
      SOMETHING_ELSE: 'not a subject',
    });
    expect(described).toEqual({
      operations: {
        'svc.things.create': { caller: 'member', params: [], query: null, body: 'CreateThing', answer: 'reply<Thing>', idempotent: true },
        'svc.things.delete': { caller: 'member', params: ['id'], query: null, body: null, answer: 'nothing', idempotent: false },
        'svc.things.list': { caller: 'account', params: [], query: null, body: null, answer: 'list<Thing>', idempotent: false },
      },
      subjects: ['svc.things.sweep'],
    });
  });

  it("describes the repository's own contracts", () => {
    const described = describeMessageContracts();
    expect(described.operations['creative.themes.update-settings']).toMatchObject({ body: 'UpdateOrganizationThemeSettingsRequest' });
    expect(described.subjects.length).toBeGreaterThan(10);
  });
});
