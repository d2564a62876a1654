import { RoleChangedEvent, ROLE_CHANGED_SUBJECT, SECURITY_ACTION_SUBJECT, SecurityAction, SecurityActionEvent } from '@social/contracts';
import { enqueueEvent } from '@social/platform';
import type { EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';

/** Records a security action in the transaction of the change (notifications tells the user). */
export function enqueueSecurityAction(db: EntityManager, userId: string, action: SecurityAction, detail?: string): Promise<string> {
  const event: SecurityActionEvent = {
    event_id: uuidv7(),
    user_id: userId,
    action,
    occurred_at: new Date().toISOString(),
    ...(detail ? { detail } : {}),
  };
  return enqueueEvent(db, SECURITY_ACTION_SUBJECT, event);
}

/** Records a role change in the transaction of the change (notifications tells the member). */
export function enqueueRoleChanged(db: EntityManager, change: Omit<RoleChangedEvent, 'event_id' | 'occurred_at'>): Promise<string> {
  const event: RoleChangedEvent = { event_id: uuidv7(), ...change, occurred_at: new Date().toISOString() };
  return enqueueEvent(db, ROLE_CHANGED_SUBJECT, event);
}
