import { Header } from '@nestjs/common';

/** Answers that carry a token or grant must never sit in a cache (contract §2): `Cache-Control: no-store`. */
export const NoStore = (): MethodDecorator => Header('Cache-Control', 'no-store');
