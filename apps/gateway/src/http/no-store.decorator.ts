import { Header } from '@nestjs/common';

/** Answers that carry a token or grant must never sit in a cache (docs/decisions.md): `Cache-Control: no-store`. */
export const NoStore = (): MethodDecorator => Header('Cache-Control', 'no-store');
