import { describe, expect, it } from '@jest/globals';
import { invitationMail } from './invitation-mail.js';

describe('invitationMail', () => {
  const mail = invitationMail({
    to: 'grace@example.com',
    workspaceName: 'Launch team',
    role: 'editor',
    acceptUrl: 'https://app.example.com/invite?token=inv_abc',
    expiresAt: new Date('2030-01-08T09:30:00.000Z'),
  });

  it('goes to the invited address, naming the workspace in the subject', () => {
    expect(mail.to).toBe('grace@example.com');
    expect(mail.subject).toBe('You are invited to the workspace Launch team');
  });

  it('says the role, the link and until when it works, and for whom', () => {
    expect(mail.text).toBe(
      'You have been invited to join the workspace "Launch team" as editor.\n' +
        '\n' +
        'Accept the invitation: https://app.example.com/invite?token=inv_abc\n' +
        '\n' +
        'The link works until 2030-01-08T09:30:00.000Z and only for the address it was sent to.',
    );
  });
});
