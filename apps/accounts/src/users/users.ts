import { problems } from '@social/platform';
import type { EntityManager } from 'typeorm';
import { UserEntity } from './user.entity.js';

/** Addresses compare trimmed and case-insensitively everywhere (sign-in, registration, email change). */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** A signed-in user whose account row is gone (deleted meanwhile): their token no longer names anyone. */
export const accountGone = () => problems.unauthorized('unauthenticated', 'The account no longer exists.');

/** Whether another account (not `exceptUserId`) already signs in with this address. */
export function emailTaken(db: EntityManager, email: string, exceptUserId?: string): Promise<boolean> {
  const query = db
    .getRepository(UserEntity)
    .createQueryBuilder('u')
    .where('lower(u.email) = :email', { email: normalizeEmail(email) });
  if (exceptUserId) query.andWhere('u.id <> :id', { id: exceptUserId });
  return query.getExists();
}
